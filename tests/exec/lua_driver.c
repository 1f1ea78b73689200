/* lua_driver.c: a minimal host for the Lua 5.4 library: opens the standard
 * libraries and runs each script named on the command line, stopping with
 * the error message and exit status 1 at the first that fails. */
#include <stdio.h>
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int main(int argc, char **argv) {
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "cannot create a Lua state\n");
        return 1;
    }
    luaL_openlibs(L);
    for (int i = 1; i < argc; i++) {
        if (luaL_dofile(L, argv[i]) != LUA_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], lua_tostring(L, -1));
            lua_close(L);
            return 1;
        }
    }
    lua_close(L);
    return 0;
}
