/* Whole-number options as the tools take them on the command line: "--runs 30", "--points 1048576". */
#ifndef FFTGEN_TOOLS_COUNT_ARG_H
#define FFTGEN_TOOLS_COUNT_ARG_H

/* The number `text` spells, from min to max; -1, after a message naming the program and the option,
 * for anything else ("3x", "", "1e6", out of range). min is 0 or more. */
long long count_arg_parse(const char *program, const char *option, const char *text, long long min, long long max);

#endif
