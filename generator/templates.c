#include "templates.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>

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
