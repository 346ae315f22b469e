/* test_sm_tables.c: the SM's per-op lookups (sm_internal.h) against their plain definitions. */
#include "../test.h"

#include "core/sm_internal.h"

TEST(sm_op_units_match_definition)
{
    for (uint32_t op = 0; op < WOP_COUNT; op++) {
        bool sfu = op == WOP_SFU || op == WOP_INT_DIV || op == WOP_FP_DIV || (op >= WOP_DP_ADD && op <= WOP_DP_DIV);
        EXPECT_EQ_U(sm_on_sfu((uint8_t)op), sfu);
        WinstStatic s = {.op = (uint8_t)op};
        SmUnit u = winst_is_mem(&s) ? SM_UNIT_LDST : op == WOP_TENSOR ? SM_UNIT_TENSOR : sfu ? SM_UNIT_SFU : SM_UNIT_SP;
        EXPECT_EQ_U(sm_unit_of(&s), u);
    }
}
