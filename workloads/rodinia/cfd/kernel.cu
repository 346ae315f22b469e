/* kernel.cu: the CFD solver of Rodinia (euler3d): a finite-volume solver of the 3D Euler
 * equations on an unstructured grid, one thread per element, 192-thread blocks.
 *
 * Each time step the host saves the variables, cfd_step_factor computes every element's local
 * time step, and three Runge-Kutta stages each run cfd_flux (every element sums the fluxes
 * through its four faces, which reads its four neighbours' five variables: gathers through
 * the neighbour indices) and cfd_time_step (variables = saved + step / (4 - stage) * flux).
 * All arrays are variable-major (structure of arrays, see cfd_math.h), so the element's own
 * loads are coalesced and only the neighbours' are scattered. The free stream the far-field
 * faces see is in constant memory. */
#include "../common/cfd_math.h"

__constant__ CfdFarField cfd_ff;

extern "C" __global__ void cfd_step(const float *variables, const float *areas, float *step_factors, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    step_factors[i] = cfd_step_factor(variables, areas, i, nelr);
}

extern "C" __global__ void cfd_flux(const int *neighbours, const float *normals, const float *variables,
                                    float *fluxes, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float flux[CFD_NVAR];
    cfd_element_flux(neighbours, normals, variables, i, nelr, &cfd_ff, flux);
    for (int k = 0; k < CFD_NVAR; k++)
        fluxes[i + k * nelr] = flux[k];
}

extern "C" __global__ void cfd_time_step(int stage, const float *old_variables, float *variables,
                                         const float *step_factors, const float *fluxes, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float factor = step_factors[i] / (float)(CFD_RK + 1 - stage);
    for (int k = 0; k < CFD_NVAR; k++)
        variables[i + k * nelr] = old_variables[i + k * nelr] + factor * fluxes[i + k * nelr];
}
