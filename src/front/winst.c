/* winst.c: names of warp-instruction classes and memory spaces, for stats and reports. */
#include "front/winst.h"

const char *winst_op_name(WinstOp op)
{
    static const char *const names[WOP_COUNT] = {
        "int_add", "int_mul", "int_mad", "int_div", "fp_add", "fp_mul", "fp_mad",
        "fp_div", "dp_add", "dp_mul", "dp_mad", "dp_div", "sfu", "load", "store",
        "atomic", "barrier", "branch", "exit", "nop", "tensor",
    };
    return (unsigned)op < WOP_COUNT ? names[op] : "?";
}

const char *winst_space_name(WinstSpace sp)
{
    static const char *const names[WSPACE_COUNT] = {
        "none", "global", "local", "shared", "const", "param", "tex",
    };
    return (unsigned)sp < WSPACE_COUNT ? names[sp] : "?";
}
