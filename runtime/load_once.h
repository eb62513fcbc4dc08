/* Loading something once per process, with every caller waiting for it: the first caller loads, and a
 * caller that comes while it loads waits instead of going on without what is being loaded. */
#ifndef FFTGEN_LOAD_ONCE_H
#define FFTGEN_LOAD_ONCE_H

#include <pthread.h>

/* Runs `load` unless `*loaded` is set, then sets it. `loading` is held while a caller loads or waits
 * for the loading (taken before `state`); once loaded, callers only read `*loaded`. `*loaded` is read
 * and written under `state`, the lock that also guards what `load` fills and under which a test may
 * clear `*loaded` to load again. */
void fftgen_load_once(pthread_mutex_t *loading, pthread_mutex_t *state, int *loaded, void (*load)(void));

#endif
