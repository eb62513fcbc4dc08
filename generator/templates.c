#include "templates.h"

#include <lauxlib.h>
#include <lua.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int load_embedded(lua_State *L)
{
    const struct fftgen_embedded_template *t = lua_touserdata(L, lua_upvalueindex(1));
    char chunk[256];
    snprintf(chunk, sizeof chunk, "@templates/%s.lua", t->module);
    if (luaL_loadbuffer(L, (const char *)t->text, t->length, chunk) != LUA_OK) return lua_error(L);
    lua_call(L, 0, 1);
    return 1;
}

void fftgen_templates_install(lua_State *L, const char *dir)
{
    lua_getglobal(L, "package");
    if (dir != NULL) {
        /* only the folder: a template missing there must not silently come from elsewhere */
        lua_pushfstring(L, "%s/?.lua", dir);
        lua_setfield(L, -2, "path");
        lua_pushliteral(L, "");
        lua_setfield(L, -2, "cpath");
    } else {
        lua_getfield(L, -1, "preload");
        for (size_t i = 0; i < fftgen_embedded_template_count; ++i) {
            lua_pushlightuserdata(L, (void *)&fftgen_embedded_templates[i]);
            lua_pushcclosure(L, load_embedded, 1);
            lua_setfield(L, -2, fftgen_embedded_templates[i].module);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

int fftgen_templates_check_dir(const char *dir, char *why, size_t why_len)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(why, why_len, "--templates '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, why_len, "--templates '%s' is not a folder", dir);
        return -1;
    }
    for (size_t i = 0; i < fftgen_embedded_template_count; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.lua", dir, fftgen_embedded_templates[i].module);
        FILE *f = fopen(path, "r");
        if (f == NULL) {
            snprintf(why, why_len, "--templates '%s': cannot read %s.lua there (%s); the folder must hold every"
                                   " template, as templates/ does", dir, fftgen_embedded_templates[i].module,
                     strerror(errno));
            return -1;
        }
        fclose(f);
    }
    return 0;
}
