#include "load_once.h"

static int is_loaded(pthread_mutex_t *state, const int *loaded)
{
    pthread_mutex_lock(state);
    const int done = *loaded;
    pthread_mutex_unlock(state);
    return done;
}

void fftgen_load_once(pthread_mutex_t *loading, pthread_mutex_t *state, int *loaded, void (*load)(void))
{
    if (is_loaded(state, loaded)) return; /* every plan after the first: no wait on `loading` */
    pthread_mutex_lock(loading);
    if (!is_loaded(state, loaded)) {
        load(); /* takes `state` itself where it stores */
        pthread_mutex_lock(state);
        *loaded = 1;
        pthread_mutex_unlock(state);
    }
    pthread_mutex_unlock(loading);
}
