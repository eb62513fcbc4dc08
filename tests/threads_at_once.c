#define _POSIX_C_SOURCE 200809L
#include "threads_at_once.h"

#include <pthread.h>

/* The starting signal: threads wait for `go`, then all make their attempt. (A condition rather than a
 * barrier, so that a thread that cannot be started leaves none of the others waiting.) */
struct start {
    pthread_mutex_t lock;
    pthread_cond_t signal;
    int go;
    int (*attempt)(void);
};

struct racer {
    struct start *start;
    int succeeded;
};

static void *race(void *context)
{
    struct racer *racer = context;
    struct start *start = racer->start;
    pthread_mutex_lock(&start->lock);
    while (!start->go) pthread_cond_wait(&start->signal, &start->lock);
    pthread_mutex_unlock(&start->lock);
    racer->succeeded = start->attempt();
    return NULL;
}

int threads_at_once(int threads, int rounds, void (*reset)(void), int (*attempt)(void))
{
    enum { MAX_THREADS = 64 };
    if (threads < 1 || threads > MAX_THREADS) return -1;
    int failed = 0;
    for (int round = 0; round < rounds && failed >= 0; ++round) {
        reset();
        struct start start = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, attempt};
        pthread_t ids[MAX_THREADS];
        struct racer racers[MAX_THREADS];
        int started = 0;
        while (started < threads) {
            racers[started] = (struct racer){&start, 0};
            if (pthread_create(&ids[started], NULL, race, &racers[started]) != 0) break;
            ++started;
        }
        pthread_mutex_lock(&start.lock);
        start.go = 1;
        pthread_cond_broadcast(&start.signal);
        pthread_mutex_unlock(&start.lock);
        for (int t = 0; t < started; ++t) {
            pthread_join(ids[t], NULL);
            failed += !racers[t].succeeded;
        }
        if (started < threads) failed = -1;
    }
    return failed;
}
