/* cfd_math.h: the per-element arithmetic of cfd's Euler solver, written once for its kernels
 * (nvcc compiles these as device functions) and its host program's CPU reference (static
 * inline functions; include it after wl.h).
 *
 * Five conserved variables per element (density, momentum x/y/z, density * energy), stored
 * variable-major with a padded element count nelr: variable k of element i is
 * variables[i + k * nelr]. Each element has CFD_NNB faces; face j's neighbour is
 * neighbours[i + j * nelr] (an element, CFD_WING for a wall, CFD_FAR_FIELD for the far field)
 * and its outward normal, scaled by the face area, is normals[i + (j + c * CFD_NNB) * nelr],
 * c = x, y, z. */
#ifndef CFD_MATH_H
#define CFD_MATH_H

#ifdef __CUDACC__
#define CFD_FN __device__
#else
#include <math.h>
#define CFD_FN static inline
#endif

#define CFD_NVAR 5
#define CFD_NNB 4
#define CFD_WING (-1)
#define CFD_FAR_FIELD (-2)
#define CFD_GAMMA 1.4f
#define CFD_SMOOTHING 0.2f /* the artificial dissipation coefficient */
#define CFD_RK 3           /* Runge-Kutta stages a time step */

typedef struct CfdVec {
    float x, y, z;
} CfdVec;

/* An element's state and the fluxes it carries (the flux vectors of the momentum components
 * and of the energy). */
typedef struct CfdState {
    float density, energy, pressure, speed_sqd, sound;
    CfdVec momentum, velocity, fc_mx, fc_my, fc_mz, fc_e;
} CfdState;

/* The far-field state (free stream) the far-field faces see, in constant memory in the kernel. */
typedef struct CfdFarField {
    float density, energy;
    CfdVec momentum, fc_mx, fc_my, fc_mz, fc_e;
} CfdFarField;

CFD_FN CfdState cfd_state(const float *variables, int i, int nelr)
{
    CfdState s;
    s.density = variables[i];
    s.momentum.x = variables[i + nelr];
    s.momentum.y = variables[i + 2 * nelr];
    s.momentum.z = variables[i + 3 * nelr];
    s.energy = variables[i + 4 * nelr];
    s.velocity.x = s.momentum.x / s.density;
    s.velocity.y = s.momentum.y / s.density;
    s.velocity.z = s.momentum.z / s.density;
    s.speed_sqd = s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y + s.velocity.z * s.velocity.z;
    s.pressure = (CFD_GAMMA - 1.0f) * (s.energy - 0.5f * s.density * s.speed_sqd);
    s.sound = sqrtf(CFD_GAMMA * s.pressure / s.density);
    s.fc_mx.x = s.velocity.x * s.momentum.x + s.pressure;
    s.fc_mx.y = s.velocity.x * s.momentum.y;
    s.fc_mx.z = s.velocity.x * s.momentum.z;
    s.fc_my.x = s.fc_mx.y;
    s.fc_my.y = s.velocity.y * s.momentum.y + s.pressure;
    s.fc_my.z = s.velocity.y * s.momentum.z;
    s.fc_mz.x = s.fc_mx.z;
    s.fc_mz.y = s.fc_my.z;
    s.fc_mz.z = s.velocity.z * s.momentum.z + s.pressure;
    float e_plus_p = s.energy + s.pressure;
    s.fc_e.x = s.velocity.x * e_plus_p;
    s.fc_e.y = s.velocity.y * e_plus_p;
    s.fc_e.z = s.velocity.z * e_plus_p;
    return s;
}

/* The local time step over the element's volume: half the inverse of its size times its
 * fastest wave speed. */
CFD_FN float cfd_step_factor(const float *variables, const float *areas, int i, int nelr)
{
    CfdState s = cfd_state(variables, i, nelr);
    return 0.5f / (sqrtf(areas[i]) * (sqrtf(s.speed_sqd) + s.sound));
}

/* flux[k] += the central flux of a face with normal n between state a and the neighbour's
 * (momentum and flux vectors). */
CFD_FN void cfd_add_central(float *flux, CfdVec n, const CfdState *a, CfdVec mom, CfdVec fc_mx, CfdVec fc_my,
                            CfdVec fc_mz, CfdVec fc_e)
{
    float f = 0.5f * n.x;
    flux[0] += f * (mom.x + a->momentum.x);
    flux[1] += f * (fc_mx.x + a->fc_mx.x);
    flux[2] += f * (fc_my.x + a->fc_my.x);
    flux[3] += f * (fc_mz.x + a->fc_mz.x);
    flux[4] += f * (fc_e.x + a->fc_e.x);
    f = 0.5f * n.y;
    flux[0] += f * (mom.y + a->momentum.y);
    flux[1] += f * (fc_mx.y + a->fc_mx.y);
    flux[2] += f * (fc_my.y + a->fc_my.y);
    flux[3] += f * (fc_mz.y + a->fc_mz.y);
    flux[4] += f * (fc_e.y + a->fc_e.y);
    f = 0.5f * n.z;
    flux[0] += f * (mom.z + a->momentum.z);
    flux[1] += f * (fc_mx.z + a->fc_mx.z);
    flux[2] += f * (fc_my.z + a->fc_my.z);
    flux[3] += f * (fc_mz.z + a->fc_mz.z);
    flux[4] += f * (fc_e.z + a->fc_e.z);
}

/* The sum of element i's face fluxes into flux[CFD_NVAR]: for a neighbour element the
 * central flux plus a dissipation term proportional to the difference of the states, for a
 * wall the pressure on it, for the far field the central flux with the free stream. */
CFD_FN void cfd_element_flux(const int *neighbours, const float *normals, const float *variables, int i, int nelr,
                             const CfdFarField *ff, float *flux)
{
    CfdState a = cfd_state(variables, i, nelr);
    float speed = sqrtf(a.speed_sqd);
    for (int k = 0; k < CFD_NVAR; k++)
        flux[k] = 0.0f;
    for (int j = 0; j < CFD_NNB; j++) {
        int nb = neighbours[i + j * nelr];
        CfdVec n;
        n.x = normals[i + (j + 0 * CFD_NNB) * nelr];
        n.y = normals[i + (j + 1 * CFD_NNB) * nelr];
        n.z = normals[i + (j + 2 * CFD_NNB) * nelr];
        if (nb >= 0) {
            CfdState b = cfd_state(variables, nb, nelr);
            float len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
            float f = -len * CFD_SMOOTHING * 0.5f * (speed + sqrtf(b.speed_sqd) + a.sound + b.sound);
            flux[0] += f * (a.density - b.density);
            flux[1] += f * (a.momentum.x - b.momentum.x);
            flux[2] += f * (a.momentum.y - b.momentum.y);
            flux[3] += f * (a.momentum.z - b.momentum.z);
            flux[4] += f * (a.energy - b.energy);
            cfd_add_central(flux, n, &a, b.momentum, b.fc_mx, b.fc_my, b.fc_mz, b.fc_e);
        } else if (nb == CFD_WING) {
            flux[1] += n.x * a.pressure;
            flux[2] += n.y * a.pressure;
            flux[3] += n.z * a.pressure;
        } else if (nb == CFD_FAR_FIELD) {
            cfd_add_central(flux, n, &a, ff->momentum, ff->fc_mx, ff->fc_my, ff->fc_mz, ff->fc_e);
        }
    }
}

#endif
