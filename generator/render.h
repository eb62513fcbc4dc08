/* Renders one kernel file from a plan by running the Lua templates. The CLI, the tests and
 * (later) the runtime all come through here, so they get the same text for the same plan. */
#ifndef FFTGEN_RENDER_H
#define FFTGEN_RENDER_H

#include <stddef.h>

#include "planner.h"

#define FFTGEN_VERSION "0.1.0"

typedef enum { FFTGEN_TARGET_CUDA, FFTGEN_TARGET_SIM } fftgen_target;

enum { FFTGEN_RENDER_FORWARD = 1, FFTGEN_RENDER_INVERSE = 2, FFTGEN_RENDER_BOTH = 3 };

typedef struct {
    const fftgen_transform_plan *plan;
    fftgen_target target;
    int directions;            /* FFTGEN_RENDER_FORWARD, FFTGEN_RENDER_INVERSE or both */
    const char *name;          /* prefix of every entry point; NULL gives fftgen_<n>_<precision> */
    const char *templates_dir; /* NULL: the embedded templates */
} fftgen_render_request;

/* Returns the source text (free() it), or NULL with a one-line reason in `why`. */
char *fftgen_render(const fftgen_render_request *request, char *why, size_t why_len);

/* What the rendered text is a function of, besides the embedded templates: the plan table the
 * templates are given (its every field, the target, the name, the directions and fftgen's version),
 * as text (free() it). Two requests with the same identity render the same text, so the runtime can
 * find a kernel it compiled before without rendering it again. NULL with `why` for templates read from
 * a folder (their text is not known here) or when out of memory. */
char *fftgen_render_identity(const fftgen_render_request *request, char *why, size_t why_len);

/* The default entry-point prefix, e.g. "fftgen_4096_fp32". */
void fftgen_default_name(const fftgen_transform_plan *plan, char *name, size_t len);

/* The canonical command line that reproduces a plan, written into every file's header. It names no
 * architecture: the text of a plan is the same for every architecture that yields that plan. */
void fftgen_plan_command(const fftgen_transform_plan *plan, int directions, const char *name, char *out,
                         size_t len);

#endif
