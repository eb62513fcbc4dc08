/* `fftgen pack ...`: see pack_command.c. */
#ifndef FFTGEN_PACK_COMMAND_H
#define FFTGEN_PACK_COMMAND_H

/* argv[0] is "pack". Returns the exit status. */
int fftgen_pack_command(int argc, char **argv);

#endif
