/* Transform shapes as the tools take them on the command line: "4096", "512x256", "64x64x64". */
#ifndef FFTGEN_TOOLS_SHAPE_ARG_H
#define FFTGEN_TOOLS_SHAPE_ARG_H

struct shape_arg {
    int rank;
    long long n[3]; /* row-major: n[rank - 1] varies fastest */
};

/* Powers of two from 2, one to three dimensions, at most 2^30 points in all; 0 on success, -1 on
 * anything else. */
int shape_arg_parse(const char *text, struct shape_arg *shape);

long long shape_arg_points(const struct shape_arg *shape);

/* A 2D or 3D layout's embeds, as fftgen's --inembed takes them: the storage's sizes of dimensions 1
 * and up ("E1" or "E1xE2", each at least the shape's), or "0" for the shape's own. Fills embed[0..2]
 * (embed[0] the shape's first size); 0 on success, -1 on anything else (a 1D shape takes "0" only). */
int embed_arg_parse(const char *text, const struct shape_arg *shape, long long embed[3]);

#endif
