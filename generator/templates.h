/* The Lua templates: embedded into the binary at build time, or read from a folder. */
#ifndef FFTGEN_TEMPLATES_H
#define FFTGEN_TEMPLATES_H

#include <stddef.h>

struct lua_State;

struct fftgen_embedded_template {
    const char *module; /* e.g. "stage" for templates/stage.lua */
    const unsigned char *text;
    size_t length;
};

/* Written by the build (embed_templates.c). */
extern const struct fftgen_embedded_template fftgen_embedded_templates[];
extern const size_t fftgen_embedded_template_count;

/* Makes `require` find the templates: the embedded ones through package.preload, with chunk names
 * "templates/NAME.lua" so that errors name the file and line, or, when `dir` is not NULL, the files
 * DIR/NAME.lua on disk (for template development). */
void fftgen_templates_install(struct lua_State *L, const char *dir);

/* 0 when `dir` is a folder that holds every template (NAME.lua for each embedded one); else -1 and
 * `why` names the folder and what is missing, so that --templates fails before Lua's search list does. */
int fftgen_templates_check_dir(const char *dir, char *why, size_t why_len);

#endif
