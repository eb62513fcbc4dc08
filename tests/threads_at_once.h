/* Races on purpose: many threads released at once, for tests of what a process does once (loading
 * tables) while several threads ask for it. */
#ifndef FFTGEN_TEST_THREADS_AT_ONCE_H
#define FFTGEN_TEST_THREADS_AT_ONCE_H

/* `rounds` times: `reset` alone, then `threads` threads (at most 64) that call `attempt` at the same
 * moment. The number of attempts that returned 0, or -1 if a thread could not be started. */
int threads_at_once(int threads, int rounds, void (*reset)(void), int (*attempt)(void));

#endif
