/* The kernel cache: cubins keyed by a hash of the source, the NVRTC options, the architecture and
 * the NVRTC and fftgen versions; in memory for the process, and on disk across processes. Beside it,
 * the render index: which source a plan's render request gave, so that the templates need not run
 * again for a kernel the cache or a pack already holds. */
#ifndef FFTGEN_RUNTIME_CACHE_H
#define FFTGEN_RUNTIME_CACHE_H

#include <stddef.h>

#include "fftgen.h"
#include "render.h"

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
    int renders_skipped; /* kernels found through the render index, their source not rendered again */
} fftgen_cache_stats;

/* Returns the cubin of `source` for sm_<arch>: from a loaded kernel pack, from memory, from disk, or
 * compiled with NVRTC (unless `allow_jit` is 0: then FFTGEN_JIT_DISABLED). On NVRTC_FAILED, `log`
 * says why. */
fftgen_result fftgen_cache_get(const char *source, int arch, int allow_jit, fftgen_cubin *cubin, char *log,
                               size_t log_len);

/* The cubin of the kernels `request` renders, as fftgen_cache_get finds or compiles it; a request
 * seen before (in this process, or in the disk cache's render index) is found without rendering it
 * again. FFTGEN_GENERATOR_FAILED when the templates fail; `why` says why, or holds NVRTC's log. */
fftgen_result fftgen_cache_get_rendered(const fftgen_render_request *request, int arch, int allow_jit,
                                        fftgen_cubin *cubin, char *why, size_t why_len);

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
