/* Kernel packs: compiled kernels (cubins) for a set of plans and architectures in one versioned file,
 * so that an application can plan with no NVRTC. A kernel is found by a hash of its source text and
 * its architecture, so a pack serves exactly the plans whose source it was compiled from.
 *
 * File layout (little-endian): a 48-byte header ("FFTGENPK", format, entry count, fftgen version,
 * file size, checksum of everything after the header), one 256-byte descriptor per kernel (source
 * key, architecture, precision, size, passes, cubin offset, size and checksum, and a one-line
 * summary: directions, layout, radix chains and launch shapes), then the cubins. A pack read from
 * memory or a file is checked whole against the header's checksum, which covers every cubin (their
 * own checksums are still written, in format 1, but nothing reads them); the embedded default pack,
 * part of the library, only for its structure. */
#ifndef FFTGEN_RUNTIME_PACK_H
#define FFTGEN_RUNTIME_PACK_H

#include <stddef.h>

#include "cache.h"
#include "fftgen.h"
#include "hash.h"

typedef struct {
    const char *source; /* the generated .cu text the cubin was compiled from */
    int arch;
    int precision;      /* fftgen_kernel_precision: 0 fp32, 1 fp16, 2 split, 3 split-papers */
    long long n;
    int passes;
    const char *summary;
    const void *cubin;
    size_t cubin_size;
} fftgen_pack_entry;

/* The key a kernel for sm_<arch> has in packs, from the hash of its source (fftgen_hash_text). */
void fftgen_pack_key(const fftgen_hash *source_hash, int arch, fftgen_hash *key);

/* Writes a pack atomically (a temporary file, then rename). */
fftgen_result fftgen_pack_write(const char *path, const fftgen_pack_entry *entries, int count, char *why,
                                size_t why_len);

/* Checks a pack in memory and adds it to the process's packs; `data` must outlive the process
 * (or be copied: `copy`). `arch` > 0 requires at least one kernel for sm_<arch>. */
fftgen_result fftgen_pack_add(const void *data, size_t size, int copy, int arch);

/* Reads, checks and adds a pack file. */
fftgen_result fftgen_pack_add_file(const char *path, int arch);

/* Loads the embedded default pack and FFTGEN_PACK_PATH, once (a caller that comes while another loads
 * them waits for them). */
void fftgen_pack_load_defaults(void);

/* A loaded kernel for `source` and sm_<arch>: 1 and the cubin, or 0. */
int fftgen_pack_find(const char *source, int arch, fftgen_cubin *cubin);

/* The same, from the source's hash (fftgen_hash_text), for callers that have it already. */
int fftgen_pack_find_hashed(const fftgen_hash *source_hash, int arch, fftgen_cubin *cubin);

/* Tests only: forgets every loaded pack (and that the defaults were loaded). */
void fftgen_pack_reset_for_tests(void);

#endif
