/* main.c: the warpsim command line. */
#include "base/base.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("warpsim %s\n", WARPSIM_VERSION);
        return 0;
    }
    fprintf(stderr, "usage: warpsim --version\n");
    return 1;
}
