#include "load_once.h"

void fftgen_load_once(pthread_mutex_t *loading, pthread_mutex_t *state, int *loaded, void (*load)(void))
{
    pthread_mutex_lock(loading);
    pthread_mutex_lock(state);
    const int done = *loaded;
    pthread_mutex_unlock(state);
    if (!done) {
        load(); /* takes `state` itself where it stores */
        pthread_mutex_lock(state);
        *loaded = 1;
        pthread_mutex_unlock(state);
    }
    pthread_mutex_unlock(loading);
}
