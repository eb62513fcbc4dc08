#define _POSIX_C_SOURCE 200809L
#include "threads_at_once.h"

#include <pthread.h>

struct start {
    pthread_barrier_t barrier;
    int (*attempt)(void);
};

struct racer {
    struct start *start;
    int succeeded;
};

static void *race(void *context)
{
    struct racer *racer = context;
    pthread_barrier_wait(&racer->start->barrier);
    racer->succeeded = racer->start->attempt();
    return NULL;
}

int threads_at_once(int threads, int rounds, void (*reset)(void), int (*attempt)(void))
{
    enum { MAX_THREADS = 64 };
    if (threads < 1 || threads > MAX_THREADS) return -1;
    int failed = 0;
    for (int round = 0; round < rounds; ++round) {
        reset();
        struct start start = {.attempt = attempt};
        if (pthread_barrier_init(&start.barrier, NULL, (unsigned)threads) != 0) return -1;
        pthread_t ids[MAX_THREADS];
        struct racer racers[MAX_THREADS];
        int started = 0;
        for (; started < threads; ++started) {
            racers[started] = (struct racer){&start, 0};
            if (pthread_create(&ids[started], NULL, race, &racers[started]) != 0) break;
        }
        if (started < threads) return -1; /* the started ones wait at the barrier for ever: a test failure anyway */
        for (int t = 0; t < threads; ++t) {
            pthread_join(ids[t], NULL);
            failed += !racers[t].succeeded;
        }
        pthread_barrier_destroy(&start.barrier);
    }
    return failed;
}
