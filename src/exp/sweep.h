/* sweep.h: `warpsim sweep SPEC`: run every workload x variant of an experiment as separate
 * processes on N local workers, or emit the same runs as a Slurm job array / GNU parallel job
 * list; results go into the result store (store.h) and an interrupted sweep resumes. */
#ifndef WARPSIM_EXP_SWEEP_H
#define WARPSIM_EXP_SWEEP_H

/* argv[0] is the subcommand name ("sweep"). Returns the exit status (1 if any run failed).
 * The command of each run starts with the running executable, or with $WARPSIM_SWEEP_RUNNER
 * when set (a program taking the same arguments as `warpsim run`). */
int sweep_main(int argc, char **argv);

#endif
