/* trace_sass.c: SASS opcodes of Volta, Turing, Ampere, Ada and Hopper (sm_70 to sm_90, the
 * instruction-set tables of NVIDIA's CUDA Binary Utilities documentation) mapped to warpsim's
 * operation classes, whose latencies and initiation intervals are the configuration's
 * (alu.def), as for the other front ends.
 *
 * Choices the documentation does not make for us (docs/traces.md lists them):
 *   - moves, predicates, conversions between integers, shuffles, votes and the uniform
 *     datapath's instructions are integer adds; float conversions are float adds;
 *   - IMAD.MOV, IMAD.SHL and IMAD.IADD (the compiler's moves, shifts and adds written as IMAD)
 *     are integer adds;
 *   - half-precision arithmetic is single-precision; tensor-core instructions (HMMA, IMMA,
 *     DMMA, the warpgroup MMAs) are multiply-adds of their type: warpsim has no tensor unit;
 *   - generic loads, stores and atomics (LD, ST, ATOM) are global;
 *   - texture and surface instructions are memory instructions of the texture space when the
 *     line carries addresses; NVBit's tracer records none for them, and then a load is timed
 *     as an SFU operation, a store or atomic as a no-op; so are the bulk and tensor-memory
 *     copies (UTMALDG, UBLKCP, ...) when recorded without addresses;
 *   - an EXIT that is not the warp's last instruction ends only some lanes (the front end
 *     reports it as a no-op when it executes, as the PTX front end does).
 *
 * Opcodes the writer needs for classes no single SASS instruction has (integer and float
 * division, parameter-space accesses, ...) are "WARPSIM.<class>[.<space>]" with the names of
 * winst.c, upper case; the reader accepts them too. */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Sorted by name (strcmp), for bsearch; a unit test checks the order. */
static const TraceOpcode sass_table[] = {
    {"ACQBULK", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"ARRIVES", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"ATOM", WOP_ATOMIC, WSPACE_GLOBAL, WOP_COUNT},
    {"ATOMG", WOP_ATOMIC, WSPACE_GLOBAL, WOP_COUNT},
    {"ATOMS", WOP_ATOMIC, WSPACE_SHARED, WOP_COUNT},
    {"B2R", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"BAR", WOP_BARRIER, WSPACE_NONE, WOP_COUNT},
    {"BGMMA", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"BMMA", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"BMOV", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"BMSK", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"BPT", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"BRA", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"BREAK", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"BREV", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"BRX", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"BRXU", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"BSSY", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"BSYNC", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"CALL", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"CCTL", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"CCTLL", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"CCTLT", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"CGAERRBAR", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"CREDUX", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"CS2R", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"DADD", WOP_DP_ADD, WSPACE_NONE, WOP_COUNT},
    {"DEPBAR", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"DFMA", WOP_DP_MAD, WSPACE_NONE, WOP_COUNT},
    {"DMMA", WOP_DP_MAD, WSPACE_NONE, WOP_COUNT},
    {"DMUL", WOP_DP_MUL, WSPACE_NONE, WOP_COUNT},
    {"DSETP", WOP_DP_ADD, WSPACE_NONE, WOP_COUNT},
    {"ELECT", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"ENDCOLLECTIVE", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"ERRBAR", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"EXIT", WOP_EXIT, WSPACE_NONE, WOP_COUNT},
    {"F2F", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"F2FP", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"F2I", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"F2IP", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FADD", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FADD32I", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FCHK", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FENCE", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"FFMA", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"FFMA32I", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"FLO", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"FMNMX", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FMUL", WOP_FP_MUL, WSPACE_NONE, WOP_COUNT},
    {"FMUL32I", WOP_FP_MUL, WSPACE_NONE, WOP_COUNT},
    {"FRND", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FSEL", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FSET", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FSETP", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"FSWZADD", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"GETLMEMBASE", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"HADD2", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"HADD2_32I", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"HFMA2", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"HFMA2_32I", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"HGMMA", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"HMMA", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"HMNMX2", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"HMUL2", WOP_FP_MUL, WSPACE_NONE, WOP_COUNT},
    {"HMUL2_32I", WOP_FP_MUL, WSPACE_NONE, WOP_COUNT},
    {"HSET2", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"HSETP2", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"I2F", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"I2FP", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"I2I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"I2IP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IABS", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IADD", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IADD3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IADD32I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IDP", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IDP4A", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IGMMA", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IMAD", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IMAD32I", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IMMA", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"IMNMX", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"IMUL", WOP_INT_MUL, WSPACE_NONE, WOP_COUNT},
    {"IMUL32I", WOP_INT_MUL, WSPACE_NONE, WOP_COUNT},
    {"ISCADD", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ISCADD32I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ISETP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"JMP", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"JMX", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"JMXU", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"KILL", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"LD", WOP_LOAD, WSPACE_GLOBAL, WOP_COUNT},
    {"LDC", WOP_LOAD, WSPACE_CONST, WOP_COUNT},
    {"LDG", WOP_LOAD, WSPACE_GLOBAL, WOP_COUNT},
    {"LDGDEPBAR", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"LDGSTS", WOP_LOAD, WSPACE_GLOBAL, WOP_COUNT},
    {"LDL", WOP_LOAD, WSPACE_LOCAL, WOP_COUNT},
    {"LDS", WOP_LOAD, WSPACE_SHARED, WOP_COUNT},
    {"LDSM", WOP_LOAD, WSPACE_SHARED, WOP_COUNT},
    {"LEA", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"LEPC", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"LOP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"LOP3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"LOP32I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"MATCH", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"MEMBAR", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"MOV", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"MOV32I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"MOVM", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"MUFU", WOP_SFU, WSPACE_NONE, WOP_COUNT},
    {"NANOSLEEP", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"NOP", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"P2R", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"PLOP3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"PMTRIG", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"POPC", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"PRMT", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"PSETP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"QGMMA", WOP_FP_MAD, WSPACE_NONE, WOP_COUNT},
    {"QSPC", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"R2B", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"R2P", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"R2UR", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"RED", WOP_ATOMIC, WSPACE_GLOBAL, WOP_COUNT},
    {"REDUX", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"RET", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"RPCMOV", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"RTT", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"S2R", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"S2UR", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SEL", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SETCTAID", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SETLMEMBASE", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SGXT", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SHF", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SHFL", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SHL", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"SHR", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ST", WOP_STORE, WSPACE_GLOBAL, WOP_COUNT},
    {"STG", WOP_STORE, WSPACE_GLOBAL, WOP_COUNT},
    {"STL", WOP_STORE, WSPACE_LOCAL, WOP_COUNT},
    {"STS", WOP_STORE, WSPACE_SHARED, WOP_COUNT},
    {"STSM", WOP_STORE, WSPACE_SHARED, WOP_COUNT},
    {"SUATOM", WOP_ATOMIC, WSPACE_TEX, WOP_NOP},
    {"SULD", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"SURED", WOP_ATOMIC, WSPACE_TEX, WOP_NOP},
    {"SUST", WOP_STORE, WSPACE_TEX, WOP_NOP},
    {"SYNCS", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"TEX", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"TLD", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"TLD4", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"TMML", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"TXD", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"TXQ", WOP_LOAD, WSPACE_TEX, WOP_SFU},
    {"UBLKCP", WOP_LOAD, WSPACE_GLOBAL, WOP_NOP},
    {"UBLKPF", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"UBLKRED", WOP_ATOMIC, WSPACE_GLOBAL, WOP_NOP},
    {"UBMSK", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UBREV", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UCLEA", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UF2FP", WOP_FP_ADD, WSPACE_NONE, WOP_COUNT},
    {"UFLO", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UIADD3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UIMAD", WOP_INT_MAD, WSPACE_NONE, WOP_COUNT},
    {"UISETP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ULDC", WOP_LOAD, WSPACE_CONST, WOP_COUNT},
    {"ULEA", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ULOP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ULOP3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"ULOP32I", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UMOV", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UP2UR", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UPLOP3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UPOPC", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UPRMT", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UPSETP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UR2UP", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"USEL", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"USGXT", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"USHF", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"USHL", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"USHR", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"UTMACCTL", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"UTMACMDFLUSH", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"UTMALDG", WOP_LOAD, WSPACE_GLOBAL, WOP_NOP},
    {"UTMAPF", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"UTMASTG", WOP_STORE, WSPACE_GLOBAL, WOP_NOP},
    {"VABSDIFF", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VABSDIFF4", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VIADD", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VIADDMNMX", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VIMNMX", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VIMNMX3", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VOTE", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"VOTEU", WOP_INT_ADD, WSPACE_NONE, WOP_COUNT},
    {"WARPGROUP", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"WARPGROUPSET", WOP_NOP, WSPACE_NONE, WOP_COUNT},
    {"WARPSYNC", WOP_BRANCH, WSPACE_NONE, WOP_COUNT},
    {"YIELD", WOP_NOP, WSPACE_NONE, WOP_COUNT},
};

/* IMAD forms that compute no product. */
static const char *const imad_adds[] = {"IMAD.MOV", "IMAD.SHL", "IMAD.IADD"};

/* The writer's SASS opcode for each class (memory classes by space below). */
static const char *const class_opcode[WOP_COUNT] = {
    [WOP_INT_ADD] = "IADD3", [WOP_INT_MUL] = "IMUL", [WOP_INT_MAD] = "IMAD", [WOP_FP_ADD] = "FADD",
    [WOP_FP_MUL] = "FMUL", [WOP_FP_MAD] = "FFMA", [WOP_DP_ADD] = "DADD", [WOP_DP_MUL] = "DMUL",
    [WOP_DP_MAD] = "DFMA", [WOP_SFU] = "MUFU", [WOP_BARRIER] = "BAR", [WOP_BRANCH] = "BRA",
    [WOP_EXIT] = "EXIT", [WOP_NOP] = "NOP",
};
static const char *const mem_opcode[3][WSPACE_COUNT] = {
    {[WSPACE_GLOBAL] = "LDG", [WSPACE_LOCAL] = "LDL", [WSPACE_SHARED] = "LDS", [WSPACE_CONST] = "LDC",
     [WSPACE_TEX] = "TEX"},
    {[WSPACE_GLOBAL] = "STG", [WSPACE_LOCAL] = "STL", [WSPACE_SHARED] = "STS"},
    {[WSPACE_GLOBAL] = "ATOMG", [WSPACE_SHARED] = "ATOMS"},
};

size_t trace_sass_table_size(void) { return ARRAY_LEN(sass_table); }
const TraceOpcode *trace_sass_table(void) { return sass_table; }

static int by_name(const void *key, const void *e)
{
    return strcmp(key, ((const TraceOpcode *)e)->name);
}

#define EXT_PREFIX "WARPSIM."

/* "WARPSIM.CLASS[.SPACE]": the writer's own opcodes. */
static bool lookup_ext(const char *s, size_t len, TraceOpcode *out)
{
    char cls[24] = "", sp[24] = "";
    const char *dot = memchr(s, '.', len);
    size_t cl = dot ? (size_t)(dot - s) : len;
    if (cl >= sizeof cls || (dot && len - cl - 1 >= sizeof sp))
        return false;
    memcpy(cls, s, cl);
    if (dot)
        memcpy(sp, dot + 1, len - cl - 1);
    *out = (TraceOpcode){.name = EXT_PREFIX, .op = WOP_COUNT, .space = WSPACE_NONE, .no_addr_op = WOP_COUNT};
    for (int op = 0; op < WOP_COUNT; op++)
        if (!strcasecmp(cls, winst_op_name((WinstOp)op)))
            out->op = (uint8_t)op;
    if (out->op == WOP_COUNT)
        return false;
    bool mem = out->op == WOP_LOAD || out->op == WOP_STORE || out->op == WOP_ATOMIC;
    if (!mem)
        return !dot;
    for (int k = 1; k < WSPACE_COUNT; k++)
        if (!strcasecmp(sp, winst_space_name((WinstSpace)k)))
            out->space = (uint8_t)k;
    return out->space != WSPACE_NONE;
}

bool trace_sass_lookup(const char *opcode, size_t len, TraceOpcode *out)
{
    size_t pre = strlen(EXT_PREFIX);
    if (len > pre && !strncmp(opcode, EXT_PREFIX, pre))
        return lookup_ext(opcode + pre, len - pre, out);
    char base[24];
    const char *dot = memchr(opcode, '.', len);
    size_t n = dot ? (size_t)(dot - opcode) : len;
    if (n == 0 || n >= sizeof base)
        return false;
    memcpy(base, opcode, n);
    base[n] = 0;
    const TraceOpcode *e = bsearch(base, sass_table, ARRAY_LEN(sass_table), sizeof *e, by_name);
    if (!e)
        return false;
    *out = *e;
    for (size_t i = 0; i < ARRAY_LEN(imad_adds); i++) {
        size_t k = strlen(imad_adds[i]);
        if (len >= k && !strncmp(opcode, imad_adds[i], k) && (len == k || opcode[k] == '.'))
            out->op = WOP_INT_ADD;
    }
    return true;
}

const char *trace_sass_name(uint8_t op, uint8_t space, char *buf, size_t len)
{
    const char *name = NULL;
    if (op == WOP_LOAD || op == WOP_STORE || op == WOP_ATOMIC) {
        if (space < WSPACE_COUNT)
            name = mem_opcode[op == WOP_LOAD ? 0 : op == WOP_STORE ? 1 : 2][space];
    } else if (op < WOP_COUNT) {
        name = class_opcode[op];
    }
    if (name) {
        snprintf(buf, len, "%s", name);
        return buf;
    }
    int n = snprintf(buf, len, EXT_PREFIX "%s", winst_op_name((WinstOp)op));
    if (op == WOP_LOAD || op == WOP_STORE || op == WOP_ATOMIC)
        snprintf(buf + n, len - (size_t)n, ".%s", winst_space_name((WinstSpace)space));
    for (char *c = buf; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    return buf;
}
