/* What `fftgen tune` needs beyond the public API: plans with the planner's choices given instead of
 * looked up, and the plan the planner made. */
#ifndef FFTGEN_RUNTIME_PLAN_CHOICE_H
#define FFTGEN_RUNTIME_PLAN_CHOICE_H

#include "fftgen.h"
#include "planner.h"
#include "wisdom.h"

/* fftgen_plan_many with `choice` (when not NULL) in place of the user's wisdom and the shipped table;
 * FFTGEN_NOT_SUPPORTED_YET where the planner cannot follow it. */
fftgen_result fftgen_plan_many_with_choice(fftgen_plan *plan, int rank, const long long *n, const long long *inembed,
                                           long long istride, long long idist, const long long *onembed,
                                           long long ostride, long long odist, fftgen_precision precision,
                                           long long batch, unsigned flags, const fftgen_choice *choice);

/* The passes of a live plan; NULL for an invalid one. */
const fftgen_transform_plan *fftgen_plan_layout(fftgen_plan plan);

#endif
