// unheard.cu: a kernel traps and the program exits 0 without a call that could tell it so.
// `warpsim exec` must not report success: it exits 5, the status of a kernel fault.
#include <cstdio>

__global__ void always_trap()
{
    __trap();
}

int main()
{
    always_trap<<<1, 32>>>();
    printf("unheard: exits without synchronizing\n");
    return 0;
}
