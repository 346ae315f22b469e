/* sim_texture.h: the embedding API's texture and surface objects and CUDA array layouts
 * (include/warpsim.h), checked and turned into the interpreter's (front/ptx/ptx.h). See
 * sim_texture.c. */
#ifndef WARPSIM_SIM_TEXTURE_H
#define WARPSIM_SIM_TEXTURE_H

#include "warpsim.h"

#include "front/ptx/ptx.h"

#include <stdbool.h>
#include <stddef.h>

/* The interpreter's object for t; false, with why, if t is not a valid object. */
bool sim_texture_convert(const WarpsimTexture *t, PtxTexture *out, char *why, size_t why_len);

#endif
