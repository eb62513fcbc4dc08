/* The kernel cache: cubins keyed by a hash of the source, the NVRTC options, the architecture and
 * the NVRTC and fftgen versions; in memory for the process, and on disk across processes. */
#ifndef FFTGEN_RUNTIME_CACHE_H
#define FFTGEN_RUNTIME_CACHE_H

#include <stddef.h>

#include "fftgen.h"

typedef struct {
    const void *data; /* owned by the cache; valid until the process ends */
    size_t size;
} fftgen_cubin;

/* Counters, for tests and diagnostics. */
typedef struct {
    int compiles;      /* NVRTC runs */
    int pack_hits;     /* kernels found in a loaded kernel pack */
    int memory_hits;
    int disk_hits;
    int disk_rejects;  /* entries on disk that were truncated or damaged, and were replaced */
    int disk_writes;
} fftgen_cache_stats;

/* Returns the cubin of `source` for sm_<arch>: from a loaded kernel pack, from memory, from disk, or
 * compiled with NVRTC (unless `allow_jit` is 0: then FFTGEN_JIT_DISABLED). On NVRTC_FAILED, `log`
 * says why. */
fftgen_result fftgen_cache_get(const char *source, int arch, int allow_jit, fftgen_cubin *cubin, char *log,
                               size_t log_len);

/* Where the disk entry for `source` would be; -1 if the disk cache is off or there is no folder. */
int fftgen_cache_entry_path(const char *source, int arch, char *path, size_t len);

void fftgen_cache_get_stats(fftgen_cache_stats *stats);

/* The cache folder ($FFTGEN_CACHE_DIR, else $XDG_CACHE_HOME/fftgen, else ~/.cache/fftgen), created if
 * needed; -1 when the disk cache is off (FFTGEN_CACHE=0) or no folder is known. */
int fftgen_cache_dir(char *dir, size_t len);

/* Tests only: forgets the in-memory entries (as a new process would) and zeroes the counters.
 * Cubins handed out before are freed: call it only when nothing uses them. */
void fftgen_cache_reset_for_tests(void);

#endif
