# The kernels the build generates with fftgen itself: every size one block holds on sm_90, in both
# precisions, as CUDA (compiled with nvcc here, which is the nvcc compile check) and as host
# simulations (checked against FFTW by tests/test_sim.c).
set(FFTGEN_TEST_SIZES 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384)
set(FFTGEN_TEST_PRECISIONS fp32 fp16)
# sm_75 has 64 KB of shared memory per block: up to 4096 points. CUDA 13 has no sm_70.
set(FFTGEN_SM75_MAX_SIZE 4096)

# A host-simulated kernel only: fftgen --target sim with ARGN, registered for tests/test_sim.c with the
# radix and layout fields given in ROW (", radix, istride, idist, ostride, odist" and, for a shape,
# ", rank, {shape}, {inembed}, {onembed}"); --tensor-cores[=P] in ARGN sets the row's tensor_cores. For a shape, N is its point count and ARGN gives --n again
# with the shape (the later --n wins).
function(fftgen_add_sim name n precision row)
  set(sim ${CMAKE_BINARY_DIR}/sim/${name}_sim.c)
  if(NOT row MATCHES "{")
    string(APPEND row ", 0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}") # 1D: no shape
  endif()
  if("${ARGN}" MATCHES "--tensor-cores")
    string(APPEND row ", 1")
  else()
    string(APPEND row ", 0")
  endif()
  string(APPEND row ", \"${name}\"")
  add_custom_command(OUTPUT ${sim}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/sim
    COMMAND fftgen --n ${n} --precision ${precision} ${ARGN} --target sim --name ${name} -o ${sim}
    DEPENDS fftgen VERBATIM)
  set(FFTGEN_SIM_SOURCES ${FFTGEN_SIM_SOURCES} ${sim} PARENT_SCOPE)
  string(TOUPPER ${precision} P)
  string(REPLACE "-" "_" P ${P}) # SPLIT-PAPERS: KERNEL_SPLIT_PAPERS
  set(decls "")
  foreach(d forward inverse)
    string(APPEND decls "int ${name}_${d}_sim(const void *in, void *out, int batch, float scale);\n")
  endforeach()
  set(sim_decls "${sim_decls}${decls}" PARENT_SCOPE)
  set(sim_rows "${sim_rows}    {${n}, KERNEL_${P}, ${name}_forward_sim, ${name}_inverse_sim${row}},\n" PARENT_SCOPE)
endfunction()

# A case of the sim lists below, CASE, whose first FIXED items the caller reads: the optional tag after them
# (a name suffix, "" where there is none) into TAG, and the flags after the tag into FLAGS.
function(fftgen_case_tag_and_flags case fixed tag flags)
  list(LENGTH case length)
  set(found_tag "")
  set(found_flags "")
  if(length GREATER fixed)
    list(GET case ${fixed} found_tag)
    math(EXPR first "${fixed} + 1")
    list(SUBLIST case ${first} -1 found_flags)
  endif()
  set(${tag} "${found_tag}" PARENT_SCOPE)
  set(${flags} "${found_flags}" PARENT_SCOPE)
endfunction()

# A CUDA kernel for tests/test_gpu.c: fftgen --n N --precision PRECISION ARGN --name NAME, compiled in the
# source list LIST (FFTGEN_CUDA_SOURCES_ALL_ARCHS, _SM80_UP or _SM90_UP) and registered with the row's
# last fields FIELDS (", tensor_cores, radix, computed_twiddles, prefetch"). A macro: it appends to the
# caller's lists and tables.
macro(fftgen_add_gpu_kernel name n precision list fields)
  set(_cu ${CMAKE_BINARY_DIR}/kernels/${name}.cu)
  add_custom_command(OUTPUT ${_cu}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/kernels
    COMMAND fftgen --n ${n} --precision ${precision} ${ARGN} --name ${name} -o ${_cu}
    DEPENDS fftgen VERBATIM)
  list(APPEND ${list} ${_cu})
  string(TOUPPER ${precision} _precision)
  foreach(_direction forward inverse)
    string(APPEND gpu_decls "int ${name}_${_direction}_launch(const void *in, void *out, int batch, void *stream);\n")
  endforeach()
  string(APPEND gpu_rows
    "    {${n}, KERNEL_${_precision}, ${name}_forward_launch, ${name}_inverse_launch${fields}},\n")
endmacro()

set(FFTGEN_SIM_SOURCES)
set(FFTGEN_CUDA_SOURCES_ALL_ARCHS)
set(FFTGEN_CUDA_SOURCES_SM80_UP)
set(sim_decls "")
set(sim_rows "")
set(gpu_decls "")
set(gpu_rows "")
foreach(n IN LISTS FFTGEN_TEST_SIZES)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    set(name fftgen_${n}_${p})
    fftgen_add_sim(${name} ${n} ${p} ", 0, 0, 0, 0, 0")
    if(n LESS_EQUAL FFTGEN_SM75_MAX_SIZE)
      fftgen_add_gpu_kernel(${name} ${n} ${p} FFTGEN_CUDA_SOURCES_ALL_ARCHS ", 0, 0, 0, 0")
    else()
      fftgen_add_gpu_kernel(${name} ${n} ${p} FFTGEN_CUDA_SOURCES_SM80_UP ", 0, 0, 0, 0")
    endif()
  endforeach()
endforeach()

# Two- and three-pass sizes (four-step through strided, tiled kernels): host-simulated against FFTW; on the
# GPU they run through the runtime (tests/test_api.c).
set(FFTGEN_TEST_MULTIPASS_SIZES 32768 65536 131072 262144 524288 1048576 2097152 8388608)
foreach(n IN LISTS FFTGEN_TEST_MULTIPASS_SIZES)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    fftgen_add_sim(fftgen_${n}_${p} ${n} ${p} ", 0, 0, 0, 0, 0")
  endforeach()
endforeach()

# Chains the default radix never produces, so that the radix-2, -4 and -8 butterflies, mixed chains
# and many threads per transform are checked too: "n:radix" pairs.
set(FFTGEN_TEST_RADIX_VARIANTS 2:2 8:2 64:2 512:2 2048:2 32:4 128:4 1024:4 4096:4 64:8 512:8 2048:8 8192:8 32:32 1024:32 2048:32 8192:32 16384:32
                               128:16)
foreach(variant IN LISTS FFTGEN_TEST_RADIX_VARIANTS)
  string(REPLACE ":" ";" parts ${variant})
  list(GET parts 0 n)
  list(GET parts 1 r)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    fftgen_add_sim(fftgen_${n}_r${r}_${p} ${n} ${p} ", ${r}, 0, 0, 0, 0" --radix ${r})
  endforeach()
endforeach()

# Blocks of fewer threads than the planner's 256 (fftgen tune measures them, the table ships some):
# "n:radix:threads". The tests' batches of 3 leave the last block partly empty.
set(FFTGEN_TEST_BLOCK_VARIANTS 16:16:32 64:16:64 256:16:64 1024:32:64 2048:32:32)
foreach(variant IN LISTS FFTGEN_TEST_BLOCK_VARIANTS)
  string(REPLACE ":" ";" parts ${variant})
  list(GET parts 0 n)
  list(GET parts 1 r)
  list(GET parts 2 t)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    fftgen_add_sim(fftgen_${n}_r${r}_b${t}_${p} ${n} ${p} ", ${r}, 0, 0, 0, 0" --radix ${r} --block-threads ${t})
  endforeach()
endforeach()

# Radix-32 chains as CUDA too (sm_80 and up, for their registers), so that tests/test_gpu.c checks
# them on the GPU beside the default radix-16 kernels of the same sizes; in fp16 also with computed
# twiddles (the shipped table's choice for an H200; 2048: a shuffle tail). "precision:variant" (ct:
# computed twiddles).
foreach(n 2048 8192 16384)
  foreach(variant fp32: fp16: fp16:ct)
    string(REPLACE ":" ";" parts "${variant};")
    list(GET parts 0 p)
    list(GET parts 1 v)
    set(flags --radix 32)
    set(computed 0)
    set(name fftgen_${n}_r32_${p})
    if(v STREQUAL "ct")
      list(APPEND flags --computed-twiddles)
      set(computed 1)
      set(name fftgen_${n}_r32_ct_${p})
    endif()
    fftgen_add_gpu_kernel(${name} ${n} ${p} FFTGEN_CUDA_SOURCES_SM80_UP ", 0, 32, ${computed}, 0" ${flags})
  endforeach()
endforeach()

# Strided layouts "n:istride:idist:ostride:odist": one tiled kernel (16 transforms a tile, fewer for
# 2048 points), and multi-pass plans that read or write the user's layout.
set(FFTGEN_TEST_STRIDED_VARIANTS 64:3:200:1:64 64:1:80:2:130 2048:2:4099:1:2048 65536:2:131075:1:65536
                                 65536:1:65536:3:196610)
foreach(variant IN LISTS FFTGEN_TEST_STRIDED_VARIANTS)
  string(REPLACE ":" ";" parts ${variant})
  list(GET parts 0 n)
  list(GET parts 1 is)
  list(GET parts 2 id)
  list(GET parts 3 os)
  list(GET parts 4 od)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    fftgen_add_sim(fftgen_${n}_s${is}_${id}_${os}_${od}_${p} ${n} ${p} ", 0, ${is}, ${id}, ${os}, ${od}"
                   --istride ${is} --idist ${id} --ostride ${os} --odist ${od})
  endforeach()
endforeach()

# Radix-16 stages on tensor cores (--tensor-cores, fp16 only): host-simulated with mma.sync emulated from
# the PTX fragment layouts, against FFTW.
set(FFTGEN_TEST_TENSOR_CORE_SIZES 16 32 256 512 4096 16384)
# The same kernels as CUDA, for sm_80 and sm_90, for tests/test_gpu.c.
foreach(n IN LISTS FFTGEN_TEST_TENSOR_CORE_SIZES)
  set(name fftgen_${n}_tc_fp16)
  fftgen_add_sim(${name} ${n} fp16 ", 16, 0, 0, 0, 0" --tensor-cores)
  fftgen_add_gpu_kernel(${name} ${n} fp16 FFTGEN_CUDA_SOURCES_SM80_UP ", 1, 0, 0, 0" --tensor-cores)
endforeach()

# The split precisions (fp32 data, radix-16 stages on tensor cores with each operand split into fp16
# hi + lo): one kernel, two and three passes whose tiled stages run on tensor cores, a strided
# layout and a 2D shape; the papers' variant on fewer. tests/test_sim.c also checks inputs at 1e-20
# and 1e20. "n:precision" pairs, or "shape:precision" for 2D.
set(FFTGEN_TEST_SPLIT_SIZES 16 32 256 512 4096 16384 65536)
set(FFTGEN_TEST_SPLIT_PAPERS_SIZES 16 4096 65536)
foreach(n IN LISTS FFTGEN_TEST_SPLIT_SIZES)
  fftgen_add_sim(fftgen_${n}_split ${n} split ", 0, 0, 0, 0, 0")
endforeach()
foreach(n IN LISTS FFTGEN_TEST_SPLIT_PAPERS_SIZES)
  fftgen_add_sim(fftgen_${n}_split_papers ${n} split-papers ", 0, 0, 0, 0, 0")
endforeach()
fftgen_add_sim(fftgen_2048_s2_4099_1_2048_split 2048 split ", 0, 2, 4099, 1, 2048"
               --istride 2 --idist 4099 --ostride 1 --odist 2048)

# 2D and 3D shapes "AxB[xC]": fused slices (the whole shape, or its last two dimensions, in one block;
# the 16x128 slices of 2x16x128 read their rows straight from global memory in fp16, and the fp16
# columns of 256x16 store through shared memory; 4x8x16, 2x16x128 and 2x64x64 whole in one block, their
# dimension 0 shorter than the slices' points a thread, so each thread takes 2, 8 and 8 columns in turn;
# 2x2048, 4x64 and 4x2x4096's 2x4096, slices of fewer rows than their rows' points a thread, whose rows'
# last stage runs the whole columns (2x4096 at radix 32, where only there it can);
# 2x2x2 and 8x2x4, volumes of slices of 4 and 8 points; 2048x2 and 64x4, slices of rows shorter than
# their columns' points a thread, 8 and 4 rows a thread),
# contiguous rows plus tiled columns, three tiled passes with groups, and rows longer than one kernel
# (two and three four-step passes through the work area); host-simulated against FFTW.
set(FFTGEN_TEST_SHAPES 2x4 8x16 32x32 64x512 512x64 4x2048 4x8x16 32x32x8 8x64x64 16x16x64 2x16x128 2x64x64 256x16 4x2x4096
                       8x16x2048 2x2048 4x64 2x2x2 8x2x4 2048x2 64x4
                       4x32768 2x2x131072 2x2097152)
# Strided shapes "shape:istride:idist:inembed:ostride:odist:onembed" (an embed of 0: the shape's).
set(FFTGEN_TEST_STRIDED_SHAPES 16x32:2:1100:40:1:512:0 4x8x16:1:512:0:1:900:10x20)
function(fftgen_shape_fields shape inembed onembed out_n out_row)
  string(REPLACE "x" ";" dims ${shape})
  list(LENGTH dims rank)
  set(points 1)
  foreach(d IN LISTS dims)
    math(EXPR points "${points} * ${d}")
  endforeach()
  set(padded ${dims} 0 0)
  list(SUBLIST padded 0 3 padded)
  string(REPLACE ";" ", " shape_list "${padded}")
  foreach(side in on)
    set(embed 0 0 0)
    if(NOT "${${side}embed}" STREQUAL "0")
      string(REPLACE "x" ";" e ${${side}embed})
      set(embed 0 ${e} 0)
      list(SUBLIST embed 0 3 embed)
    endif()
    string(REPLACE ";" ", " ${side}_list "${embed}")
  endforeach()
  set(${out_n} ${points} PARENT_SCOPE)
  set(${out_row} ", ${rank}, {${shape_list}}, {${in_list}}, {${on_list}}" PARENT_SCOPE)
endfunction()
# The same shapes as CUDA, as a user gets them from `fftgen --n SHAPE -o file.cu`, compiled for sm_90
# with warnings as errors (fftgen_cuda_shape_check, below): the GPU tests run 2D and 3D shapes through
# NVRTC, which would not show a generator's unused variable or a narrowing conversion.
# Beside them, compiled only: a volume whose dimension 0 takes several stages (16x2x2), slices of
# 1024-thread blocks (128x128) and on clusters (fp32 256x256), and a cube's slices (16x16x16).
set(FFTGEN_CUDA_SHAPE_SOURCES)
foreach(shape IN LISTS FFTGEN_TEST_SHAPES ITEMS 16x2x2 128x128 256x256 16x16x16)
  fftgen_shape_fields(${shape} 0 0 points fields)
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    if(shape IN_LIST FFTGEN_TEST_SHAPES)
      fftgen_add_sim(fftgen_${shape}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape})
    endif()
    set(cu ${CMAKE_BINARY_DIR}/kernels/shape_${shape}_${p}.cu)
    add_custom_command(OUTPUT ${cu}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/kernels
      COMMAND fftgen --n ${shape} --precision ${p} --arch sm_90 -o ${cu}
      DEPENDS fftgen VERBATIM)
    list(APPEND FFTGEN_CUDA_SHAPE_SOURCES ${cu})
  endforeach()
endforeach()
# narrower tiles than the planner's (fftgen tune may choose them): the shuffle tail's lane pairs
# are then fft_thread f and f ^ 4 (fp16, tiles of 4) or f ^ 8 (fp32, tiles of 2)
fftgen_add_sim(fftgen_262144_t4_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --max-tile 4)
fftgen_add_sim(fftgen_262144_t2_fp32 262144 fp32 ", 0, 0, 0, 0, 0" --max-tile 2)
# tiles pass by pass, as the shipped table chooses them for sm_90 (2^15, 2^19; 2^27's in a smaller size)
fftgen_add_sim(fftgen_32768_t0_8_fp16 32768 fp16 ", 0, 0, 0, 0, 0" --max-tile 0,8)
fftgen_add_sim(fftgen_524288_t16_0_fp16 524288 fp16 ", 0, 0, 0, 0, 0" --max-tile 16,0)
fftgen_add_sim(fftgen_8388608_t16_16_8_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --max-tile 16,16,8)
# twiddles from their powers of two in tiled passes (fftgen tune chooses them pass by pass): both
# passes (radix-16, -8 and -4 stages), the middle one of three, and columns on a cluster
fftgen_add_sim(fftgen_2097152_tp_fp16 2097152 fp16 ", 0, 0, 0, 0, 0" --twiddle-powers)
fftgen_add_sim(fftgen_8388608_tp2_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --twiddle-powers=2)
fftgen_shape_fields(8192x4 0 0 points fields)
fftgen_add_sim(fftgen_8192x4_tp_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 8192x4 --twiddle-powers)
# radix 32 in tiled passes (fftgen tune chooses them pass by pass; 1024 points: 32 x 32, one exchange):
# both passes of a four-step split (the columns twiddled and written as blocks, the rows read from them
# in runs), with the twiddles from their powers in fp16, one pass of two, 2D columns in place and
# columns first, and a strided layout's one tiled pass
fftgen_add_sim(fftgen_1048576_r32_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --radix32-passes)
fftgen_add_sim(fftgen_1048576_r32_tp_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --radix32-passes --twiddle-powers)
fftgen_add_sim(fftgen_1048576_r32_fp32 1048576 fp32 ", 0, 0, 0, 0, 0" --radix32-passes)
fftgen_add_sim(fftgen_524288_r32_2_fp32 524288 fp32 ", 0, 0, 0, 0, 0" --radix32-passes=2)
# 2048-point passes at radix 32 (32 x 32 x 2): fp32 rows read in runs (two exchanges), and with computed
# twiddles a shuffle tail: fp16 rows, and columns written as blocks in tiles of 4 (lane pairs f, f ^ 4)
fftgen_add_sim(fftgen_2097152_r32_2_fp32 2097152 fp32 ", 0, 0, 0, 0, 0" --radix32-passes=2)
fftgen_add_sim(fftgen_2097152_r32_ct_fp16 2097152 fp16 ", 0, 0, 0, 0, 0" --radix32-passes --computed-twiddles)
fftgen_add_sim(fftgen_2097152_c2048_t4_r32_ct_fp16 2097152 fp16 ", 0, 0, 0, 0, 0" --four-step 2048 --max-tile 4,0
               --radix32-passes --computed-twiddles)
# (fp32 1024x64 would run on a cluster's slices: c1 asks for none; cf: the columns first)
foreach(case fp16:1024x64:2 fp32:1024x64:2:c1 fp32:1024x512:1,2:cf fp16:1024x512:1,2:cf)
  string(REPLACE ":" ";" case ${case})
  list(GET case 0 p)
  list(GET case 1 shape)
  list(GET case 2 passes)
  list(LENGTH case length)
  set(extra "")
  set(tag "")
  if(length GREATER 3)
    list(GET case 3 tag)
    set(extra --cluster 1)
    if(tag STREQUAL "cf")
      set(extra --order columns-first)
    endif()
    set(tag "_${tag}")
  endif()
  string(REPLACE "," "_" passes_tag ${passes})
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_r32_${passes_tag}${tag}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape}
                 --radix32-passes=${passes} ${extra})
endforeach()
fftgen_add_sim(fftgen_1024_s3_3073_1_1024_r32_fp16 1024 fp16 ", 0, 3, 3073, 1, 1024" --radix32-passes
               --istride 3 --idist 3073 --ostride 1 --odist 1024)
# short columns (256 points or fewer) of 2D and 3D shapes straight into registers (fftgen tune chooses
# them pass by pass): 2D columns in place after the rows, 3D columns after the fused slices, with the
# twiddles from their powers in fp16
foreach(case "fp16;256x128;" "fp16;32x32x8;--twiddle-powers=2" "fp32;128x16x16;")
  list(GET case 0 p)
  list(GET case 1 shape)
  list(GET case 2 extra)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_cr_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape} --column-registers
                 ${extra})
endforeach()
# computed twiddles (fftgen tune chooses them pass by pass): radix 32 with a radix-16 last stage and with
# a shuffle tail (2048: 32 x 32 x 2, its twiddles computed too), radix 16 with a shuffle tail (which keeps
# its table), and both passes of a four-step split
fftgen_add_sim(fftgen_16384_r32_ct_fp16 16384 fp16 ", 32, 0, 0, 0, 0" --radix 32 --computed-twiddles)
fftgen_add_sim(fftgen_2048_r32_ct_fp16 2048 fp16 ", 32, 0, 0, 0, 0" --radix 32 --block-threads 32
               --computed-twiddles)
fftgen_add_sim(fftgen_8192_ct_fp16 8192 fp16 ", 0, 0, 0, 0, 0" --computed-twiddles)
# prefetching kernels (sm_90): the first stage reads each transform from the staging buffer
fftgen_add_sim(fftgen_16384_r32_ct_pf8_fp16 16384 fp16 ", 32, 0, 0, 0, 0" --radix 32 --computed-twiddles --prefetch 8)
fftgen_add_sim(fftgen_8192_pf2_fp32 8192 fp32 ", 0, 0, 0, 0, 0" --prefetch 2)
fftgen_add_sim(fftgen_1024_r32_pf4_fp16 1024 fp16 ", 32, 0, 0, 0, 0" --radix 32 --block-threads 32 --prefetch 4)
# a four-step pass 2 that runs its tiles in turn, the next tile's runs copied ahead into a staging buffer
# (runs of 4 points after tiles of 4 columns, of 8 after tiles of 8: two 16-byte pieces a run)
fftgen_add_sim(fftgen_131072_t4_0_pf2_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --max-tile 4,0 --prefetch 2)
fftgen_add_sim(fftgen_131072_t8_0_pf2_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --max-tile 8,0 --prefetch 2)
# fp16 2^23 in two passes as the shipped table plans it: 4096-point columns in tiles of 4, then 2048-point
# rows in tiles of 8 run 16 (H100) or 64 (H200) tiles a block, the next tile's runs copied ahead
fftgen_add_sim(fftgen_8388608_t4_32_pf16_ct_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --max-tile 4,32 --prefetch 16
               --computed-twiddles=1,2)
fftgen_add_sim(fftgen_8388608_t4_32_pf64_tp2_ct_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --max-tile 4,32 --prefetch 64
               --twiddle-powers=2 --computed-twiddles=1,2)
# fused slices that prefetch: the rows read the staged slice (a 2D shape, and a 3D shape's first pass)
foreach(shape 64x64 2x16x128)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_pf2_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n ${shape} --prefetch 2)
endforeach()
# slices of 32 points a thread (--radix 32: 512 threads for 128x128), whose rows' last stage runs the
# columns' first in the same phase (merged_stage; 32x32, 64x64 and 8x64x64 above merge at 16 points,
# 32x512 after a radix-2 row stage, 512x32 with fp16 columns copied out through shared memory), and
# the same slices prefetching
foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
  fftgen_shape_fields(128x128 0 0 points fields)
  fftgen_add_sim(fftgen_128x128_r32_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n 128x128 --radix 32)
  foreach(shape 32x512 512x32)
    fftgen_shape_fields(${shape} 0 0 points fields)
    fftgen_add_sim(fftgen_${shape}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape})
  endforeach()
endforeach()
# other radices on request: 64x64 slices at 4 points a thread (1024 threads), 32x32 at 8
foreach(case 64x64:4:fp16 32x32:8:fp32)
  string(REPLACE ":" ";" case ${case})
  list(GET case 0 shape)
  list(GET case 1 r)
  list(GET case 2 p)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_r${r}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape} --radix ${r})
endforeach()
# fp16 slices that compute their stage twiddles (--computed-twiddles): 128x128 at 32 points a thread,
# whose merged stage computes one twiddle for its group of rows, 64x64 merged at 16, and 256x64
# (columns of two stages) prefetching
foreach(case "128x128_r32;128x128;--radix;32" "64x64;64x64;" "256x64_pf2;256x64;--prefetch;2")
  list(GET case 0 name)
  list(GET case 1 shape)
  list(SUBLIST case 2 -1 flags)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${name}_ct_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n ${shape} --computed-twiddles
                 ${flags})
endforeach()
fftgen_shape_fields(4x128x128 0 0 points fields)
fftgen_add_sim(fftgen_4x128x128_r32_pf2_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 4x128x128 --radix 32
               --prefetch 2)
# column tiles of 32 (--max-tile 32: 128-byte runs in fp16), copied through shared memory and straight
# into registers
fftgen_shape_fields(256x128 0 0 points fields)
# (and with the column loads asking L2 for 256 bytes: --l2-fetch-256, a hint that changes no value)
foreach(case "t32_fp16;fp16;" "t32_cr_fp16;fp16;--column-registers;--twiddle-powers=2" "t32_fp32;fp32;"
        "t32_cr_cp_fp16;fp16;--column-registers;--column-pairs" "t32_l2f_fp16;fp16;--l2-fetch-256=2")
  list(GET case 0 tag)
  list(GET case 1 p)
  list(SUBLIST case 2 -1 extra)
  fftgen_add_sim(fftgen_256x128_${tag} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n 256x128 --max-tile 0,32 ${extra})
endforeach()
# and a four-step split in tiles of 32 (fftgen tune may choose them): pass 1's columns written as blocks,
# pass 2's rows read from them in runs of 32
fftgen_add_sim(fftgen_262144_t32_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --max-tile 32)
# the same with pass 1's columns loaded a lane pair at a time (--column-pairs: 8 bytes a row, a shuffle)
fftgen_add_sim(fftgen_262144_t32_cp_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --max-tile 32 --column-pairs)
# pass 1's columns loaded with PTX's .L2::256B (--l2-fetch-256; the host simulation loads them plainly)
fftgen_add_sim(fftgen_262144_l2f_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --l2-fetch-256=1)
# column tiles copied ahead by the TMA (--tma-columns; the host simulation copies each tile as the boxes
# would, and the kernel's threads do for an input off 16 bytes): pass 1 of fp16 2^18 and of fp32 2^17 in
# tiles of 4, 65536x4's first four-step pass of its columns, and 4096x64 (fp32) with its columns split, whose
# second column pass reads the first's blocks (its tensor map takes the rows before the groups)
fftgen_add_sim(fftgen_262144_tma_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --tma-columns=1)
# and pass 1 of three (2^23 in tiles of 16): all its columns side by side in one group, whose stride the
# tensor map takes from their span
fftgen_add_sim(fftgen_8388608_t16_16_8_tma_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --max-tile 16,16,8 --tma-columns=1)
fftgen_add_sim(fftgen_131072_t4_tma_fp32 131072 fp32 ", 0, 0, 0, 0, 0" --max-tile 4 --tma-columns)
foreach(case "65536x4;fp16;" "4096x64;fp32;--split-columns")
  list(GET case 0 shape)
  list(GET case 1 p)
  list(SUBLIST case 2 -1 extra)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_tma_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape} --tma-columns ${extra})
endforeach()
fftgen_add_sim(fftgen_1048576_ct_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --computed-twiddles)
# two tiles a block in turn, their outputs kept in shared memory and stored together (--tile-pairs): the
# rows of fp16 2^16 as 256 x 256 in tiles of 4 (written transposed in rows of 8), of fp32 2^16 in tiles of
# 2, and the 1024-point columns of fp16 1024x64
fftgen_add_sim(fftgen_65536_fs256_t4_tp_fp16 65536 fp16 ", 0, 0, 0, 0, 0" --four-step 256 --max-tile 4 --tile-pairs=2)
fftgen_add_sim(fftgen_65536_fs256_t2_tp_fp32 65536 fp32 ", 0, 0, 0, 0, 0" --four-step 256 --max-tile 2 --tile-pairs=2)
fftgen_shape_fields(1024x64 0 0 points fields)
fftgen_add_sim(fftgen_1024x64_tp_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 1024x64 --tile-pairs=2)
# fp32 rows in runs loaded straight into the first stage's registers (--row-registers, a measured choice):
# pass 2 of 2^19 (1024-point rows of three stages, tiles of 4), of 2^19 at radix 32, of 2^17 in tiles of 8
# (512-point rows whose radix-2 tail runs by warp shuffles), and 64x512's rows after its columns
fftgen_add_sim(fftgen_524288_rr_fp32 524288 fp32 ", 0, 0, 0, 0, 0" --row-registers)
fftgen_add_sim(fftgen_524288_r32_rr_fp32 524288 fp32 ", 0, 0, 0, 0, 0" --radix32-passes=2 --row-registers=2)
fftgen_add_sim(fftgen_131072_t8_rr_fp32 131072 fp32 ", 0, 0, 0, 0, 0" --max-tile 8 --row-registers)
fftgen_shape_fields(64x512 0 0 points fields)
fftgen_add_sim(fftgen_64x512_cf_t4_rr_fp32 ${points} fp32 ", 0, 0, 0, 0, 0${fields}" --n 64x512 --order columns-first
               --max-tile 0,4 --row-registers)
# the H100's shipped plan of fp16 2^22: pass 1 in tiles of 32, pass 2 reading its runs of 32 points and
# prefetching 16 tiles a block, computed twiddles in both (the L2 prefetch of pass 1 is CUDA's only)
fftgen_add_sim(fftgen_4194304_t32_0_pf16_ct_fp16 4194304 fp16 ", 0, 0, 0, 0, 0" --max-tile 32,0 --prefetch 16
               --computed-twiddles=1,2)
# the H200's shipped plan of fp16 2^20: radix 32 in both passes of tiles of 8, computed twiddles in both,
# pass 1's column pairs (the L2 prefetch of pass 2 is CUDA's only)
fftgen_add_sim(fftgen_1048576_t8_0_r32_ct_cp1_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --max-tile 8,0
               --radix32-passes=1,2 --computed-twiddles=1,2 --column-pairs=1)
# and a pass 1 whose radix-2 tail runs by warp shuffles, its pass twiddles computed from its outputs' rows
fftgen_add_sim(fftgen_262144_ct_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --computed-twiddles=1)
# the H200's shipped plans of 2^18 (fp16's for calls of up to 2^21 points since 977a0ee): both 512-point
# passes at radix 32 (32 x 16, in place of 16 x 16 x 2 and its shuffle tail), in fp16 with pass 2's
# twiddles from their powers and pass 1's computed, in fp32 with pass 2 in tiles of 16 (the L2 prefetch
# of pass 1 is CUDA's only)
fftgen_add_sim(fftgen_262144_r32_tp2_ct1_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --radix32-passes=1,2 --twiddle-powers=2
               --computed-twiddles=1)
fftgen_add_sim(fftgen_262144_t0_16_r32_fp32 262144 fp32 ", 0, 0, 0, 0, 0" --max-tile 0,16 --radix32-passes=1,2)
# and of 2^19: both passes at radix 32 (a 512-point pass 32 x 16, a 1024-point pass 32 x 32), in fp16 with
# the twiddles of both computed (the L2 prefetch of pass 2 is CUDA's only)
fftgen_add_sim(fftgen_524288_r32_tp_ct_fp16 524288 fp16 ", 0, 0, 0, 0, 0" --radix32-passes=1,2 --twiddle-powers=1,2
               --computed-twiddles=1,2)
fftgen_add_sim(fftgen_524288_r32_fp32 524288 fp32 ", 0, 0, 0, 0, 0" --radix32-passes=1,2)
# fp16 between passes: the planner keeps fp16 for two passes and stores the last intermediate of three 1D
# passes as shared-exponent complexes (above); every intermediate as fp16, and every one shared-exponent
fftgen_add_sim(fftgen_2097152_i16_fp16 2097152 fp16 ", 0, 0, 0, 0, 0" --intermediate fp16)
fftgen_add_sim(fftgen_131072_ise_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --intermediate shared-exponent)
fftgen_add_sim(fftgen_8388608_ise_fp16 8388608 fp16 ", 0, 0, 0, 0, 0" --intermediate shared-exponent)
# a mixed intermediate (half fp16, half shared-exponent, by the reading pass's rows), the planner's default for
# the last boundary of three passes that read tiles of columns: asked for everywhere here, so the boundary
# after 16x256x256's rows stays shared-exponent and the one before dimension 0's 16-point columns mixes
# (4096x64 --split-columns, below, mixes by its third pass's rows of 4 threads)
fftgen_shape_fields(16x256x256 0 0 points fields)
fftgen_add_sim(fftgen_16x256x256_imx_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 16x256x256
               --intermediate mixed)
# one pass on thread-block clusters of 2, 4 and 8 blocks (distributed shared memory emulated)
fftgen_add_sim(fftgen_32768_c2_fp32 32768 fp32 ", 0, 0, 0, 0, 0" --cluster 2)
fftgen_add_sim(fftgen_32768_c4_fp16 32768 fp16 ", 0, 0, 0, 0, 0" --cluster 4)
fftgen_add_sim(fftgen_131072_c8_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --cluster 8)
# columns on clusters (sm_90): 8192x4, 8192x2x4 and 32768x2 take them by default (below); forced here in
# 3D and on short columns, and off (the four-step split, as sm_80 plans it)
fftgen_add_sim(fftgen_64x16x16_c2_fp32 16384 fp32 ", 0, 0, 0, 0, 0, 3, {64, 16, 16}, {0, 0, 0}, {0, 0, 0}"
               --n 64x16x16 --cluster 2)
fftgen_add_sim(fftgen_256x8x8_c4_fp16 16384 fp16 ", 0, 0, 0, 0, 0, 3, {256, 8, 8}, {0, 0, 0}, {0, 0, 0}"
               --n 256x8x8 --cluster 4)
fftgen_add_sim(fftgen_8192x4_c1_fp32 32768 fp32 ", 0, 0, 0, 0, 0, 2, {8192, 4, 0}, {0, 0, 0}, {0, 0, 0}"
               --n 8192x4 --cluster 1)
# 2D slices on clusters (the last two dimensions in one pass, sm_90): 256x256 and 2x256x256 as planned
# (fp32, 8 blocks), fp16 128x256 on 4
fftgen_add_sim(fftgen_256x256_c0_fp32 65536 fp32 ", 0, 0, 0, 0, 0, 2, {256, 256, 0}, {0, 0, 0}, {0, 0, 0}"
               --n 256x256)
fftgen_add_sim(fftgen_2x256x256_c0_fp32 131072 fp32 ", 0, 0, 0, 0, 0, 3, {2, 256, 256}, {0, 0, 0}, {0, 0, 0}"
               --n 2x256x256)
fftgen_add_sim(fftgen_128x256_c4_fp16 32768 fp16 ", 0, 0, 0, 0, 0, 2, {128, 256, 0}, {0, 0, 0}, {0, 0, 0}"
               --n 128x256 --cluster 4)
# 2D with the columns first (--order columns-first): the columns into the work area, each tile as one
# block, then the rows read from the blocks in runs (fp16 rows of tiles of at most 8 straight into
# registers: 16x4096 and 64x512 with --max-tile 0,8; the others through shared memory)
foreach(case fp16:64x512 fp32:64x512 fp16:16x4096 fp32:256x512 fp16:64x512:0,8)
  string(REPLACE ":" ";" case ${case})
  list(GET case 0 p)
  list(GET case 1 shape)
  list(LENGTH case length)
  set(tiles "")
  set(tag "")
  if(length GREATER 2)
    list(GET case 2 caps)
    set(tiles --max-tile ${caps})
    string(REPLACE "," "_" tag "_t${caps}")
  endif()
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_cf${tag}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape}
                 --order columns-first ${tiles})
endforeach()
# the H100's shipped fp16 plans of 512x256 (columns first), 512x512 (rows at radix 32, pass 1 computing
# its twiddles) and 1024x1024 (columns first in tiles of 2, twiddles from their powers, pass 1 computing
# them), and the H200's 512x512 (the powers in pass 2 too); their L2 prefetch is CUDA's only
foreach(case "512x256;cf;--order;columns-first" "512x512;r32_ct1;--radix;32;--computed-twiddles=1"
        "512x512;r32_tp2_ct1;--radix;32;--twiddle-powers=2;--computed-twiddles=1"
        "1024x1024;t0_2_cf_tp_ct1;--max-tile;0,2;--order;columns-first;--twiddle-powers=1,2;--computed-twiddles=1")
  list(GET case 0 shape)
  list(GET case 1 tag)
  list(SUBLIST case 2 -1 flags)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_${tag}_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n ${shape} ${flags})
endforeach()
# 1D: the twiddled columns of two passes on clusters, when one pass on a cluster does not fit (two and
# three pass-twiddle tables)
fftgen_add_sim(fftgen_65536_c2_fp16 65536 fp16 ", 0, 0, 0, 0, 0" --cluster 2)
fftgen_add_sim(fftgen_2097152_c4_fp32 2097152 fp32 ", 0, 0, 0, 0, 0" --cluster 4)
# ... and at radix 32 where asked (--radix32-passes): 32 x 4 and 32 x 8 before the stage across the
# cluster, and 4096-point columns as 32 x 32 x 2 on two blocks
fftgen_add_sim(fftgen_65536_c2_r32_fp16 65536 fp16 ", 0, 0, 0, 0, 0" --cluster 2 --radix32-passes=1)
fftgen_add_sim(fftgen_262144_c8_r32_fp32 262144 fp32 ", 0, 0, 0, 0, 0" --cluster 8 --radix32-passes=1)
fftgen_add_sim(fftgen_4096x16_c2_r32_fp16 65536 fp16 ", 0, 0, 0, 0, 0, 2, {4096, 16, 0}, {0, 0, 0}, {0, 0, 0}"
               --n 4096x16 --cluster 2 --radix32-passes=2)
# 1D splits other than the planner's (--four-step N1): short columns then long rows, and the reverse
fftgen_add_sim(fftgen_32768_fs64_fp32 32768 fp32 ", 0, 0, 0, 0, 0" --four-step 64)
fftgen_add_sim(fftgen_65536_fs1024_fp16 65536 fp16 ", 0, 0, 0, 0, 0" --four-step 1024)
# and the H200's fp16 2^19 until the fortieth session (1024 x 512, the longer columns in tiles of 8 through the
# TMA) and, until 977a0ee, 2^17 (512 x 256 in tiles of 8)
fftgen_add_sim(fftgen_524288_fs1024_tma_fp16 524288 fp16 ", 0, 0, 0, 0, 0" --four-step 1024 --max-tile 8,0
               --tma-columns=1 --twiddle-powers=1,2 --radix32-passes=1,2 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_131072_fs512_t8_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --four-step 512 --max-tile 8
               --twiddle-powers=1,2 --radix32-passes=1 --computed-twiddles=1,2)
# the H200's fp16 2^17 and 2^18 since 977a0ee: 512-point columns in tiles of 16 through the TMA at radix 32
# (2^18 its 512-point rows at radix 32 too), fp32 2^22 as 1024 x 4096 (1024-point columns at radix 32, the
# rows straight into registers; the L2 prefetch of pass 1 is CUDA's only), and fp16 64^3 with its 64-point
# columns in tiles of 64 straight into registers after slices run four a block in turn
fftgen_add_sim(fftgen_131072_fs512_t16_tma_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --four-step 512 --max-tile 16
               --tma-columns=1 --twiddle-powers=1,2 --radix32-passes=1 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_262144_fs512_t16_tma_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --four-step 512 --max-tile 16
               --tma-columns=1 --twiddle-powers=1,2 --radix32-passes=1,2 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_4194304_fs1024_r32_rr_fp32 4194304 fp32 ", 0, 0, 0, 0, 0" --four-step 1024
               --radix32-passes=1 --row-registers=2)
# pass 2 reading its runs through the TMA too (the staging buffer in 128-byte rows swizzled as the TMA lays
# them out, which the simulation's copy does): those two fp16 lines with --tma-columns=1,2 (2^17's rows
# were read with the lanes along their runs), and fp32 2^18 (16 rows of 512 points a tile, radix 16)
fftgen_add_sim(fftgen_131072_fs512_t16_tma12_fp16 131072 fp16 ", 0, 0, 0, 0, 0" --four-step 512 --max-tile 16
               --tma-columns=1,2 --twiddle-powers=1,2 --radix32-passes=1 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_262144_fs512_t16_tma12_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --four-step 512 --max-tile 16
               --tma-columns=1,2 --twiddle-powers=1,2 --radix32-passes=1,2 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_262144_tma2_fp32 262144 fp32 ", 0, 0, 0, 0, 0" --tma-columns=2)
# and the H200's fp16 2^19 and 2^20 since the fortieth session: 1024 x 512 and 1024 x 1024, their rows in tiles
# of 16 through the TMA (2^20's 512 threads a block), reading runs of 8 from pass 1's tiles of 8; 2^20's rows
# load their twiddles (its powers of two) since the forty-second
fftgen_add_sim(fftgen_524288_fs1024_t8_16_tma12_fp16 524288 fp16 ", 0, 0, 0, 0, 0" --four-step 1024 --max-tile 8,16
               --tma-columns=1,2 --twiddle-powers=1,2 --radix32-passes=1,2 --computed-twiddles=1,2)
fftgen_add_sim(fftgen_1048576_t8_16_tma12_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --max-tile 8,16
               --tma-columns=1,2 --twiddle-powers=1,2 --radix32-passes=1,2 --computed-twiddles=1)
# rows of more than 256 runs, in several boxes of 256 (2048-point rows read in runs of 4: 512 runs)
fftgen_add_sim(fftgen_262144_fs128_t4_tma2_fp16 262144 fp16 ", 0, 0, 0, 0, 0" --four-step 128 --max-tile 4,0
               --tma-columns=2)
# fp32 tiles of 16384 points, whose staging buffer lies inside the exchanges (no room beside them): 4096-point
# rows in runs of 8 after 16-point columns, and 4096-point columns of a 2D shape in tiles of 4
fftgen_add_sim(fftgen_65536_fs16_t8_4_tma2_fp32 65536 fp32 ", 0, 0, 0, 0, 0" --four-step 16 --max-tile 8,4
               --tma-columns=2)
fftgen_shape_fields(4096x32 0 0 points fields)
fftgen_add_sim(fftgen_4096x32_t0_4_tma2_fp32 ${points} fp32 ", 0, 0, 0, 0, 0${fields}" --n 4096x32 --max-tile 0,4
               --tma-columns=2)
fftgen_shape_fields(64x64x64 0 0 points fields)
fftgen_add_sim(fftgen_64x64x64_t0_64_pf4_cr_ct_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 64x64x64
               --max-tile 0,64 --prefetch 4 --column-registers=2 --computed-twiddles=1,2)
foreach(shape 64x512 8x32x64)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_split ${points} split ", 0, 0, 0, 0, 0${fields}" --n ${shape})
endforeach()
# columns split in two passes through the work area (dense data, twiddled by the tile's group):
# 8192-point columns, whose one-pass tiles would hold two transforms (in 2D, in 3D, and in a split
# precision's per-point twiddles), and columns longer than one kernel
foreach(case fp16:8192x4 fp32:8192x4 fp16:8192x2x4 split:8192x4 fp32:32768x2)
  string(REPLACE ":" ";" case ${case})
  list(GET case 0 p)
  list(GET case 1 shape)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape})
endforeach()
# columns split in two passes where asked (--split-columns, a measured choice): 4096-point columns as
# 64 x 64 in tiles of 64 with twiddle powers in the second pass (the H200's line for 4096x4096), fp32
# 1024-point columns as 32 x 32 (after rows, not the cluster's slices), and a 3D shape's first dimension
# after its fused slices
foreach(case "fp16;4096x64;_t64_tp3;--max-tile;0,64,0;--twiddle-powers=3" "fp32;1024x64;_c1;--cluster;1"
        "fp16;16x32x32")
  list(GET case 0 p)
  list(GET case 1 shape)
  fftgen_case_tag_and_flags("${case}" 2 tag extra)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_sc${tag}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape}
                 --split-columns ${extra})
endforeach()
# dimension 0 of a 2D shape split four-step (--four-step N1): its N1-point columns into the work area, then
# slices of the rest of each column with the rows, their output rows interleaved: 4x4096 slices as the
# H200's line for fp16 4096x4096 asks (radix 32, 64 slices a block in turn, pass 1 through the TMA), small
# slices several a block, and fp32 slices of 64 rows. Slices of few rows run their whole columns in the
# rows' last stage and store from there: 4x4096 above (two butterflies of each row a thread), 2x4096 at
# radix 32 (four), 2x2048 (one), 4x512 (a radix-2 last stage), 4x64 (eight slices a block)
foreach(case "fp16;256x4096;64;_r32_pf64_tma;--max-tile;16,0;--radix;32;--prefetch;64;--radix32-passes=1;--twiddle-powers=1;--computed-twiddles=2;--tma-columns=1"
        "fp16;64x64;4" "fp32;1024x256;16" "fp32;4096x16;1024" "fp32;64x4096;32;_r32;--radix;32" "fp32;16x2048;8"
        "fp16;8x512;2" "fp32;8x64;2")
  list(GET case 0 p)
  list(GET case 1 shape)
  list(GET case 2 columns)
  fftgen_case_tag_and_flags("${case}" 3 tag extra)
  fftgen_shape_fields(${shape} 0 0 points fields)
  fftgen_add_sim(fftgen_${shape}_fs${columns}${tag}_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n ${shape}
                 --four-step ${columns} ${extra})
endforeach()
# a 2D shape's rows (one kernel, no slice fits a block) at the radix asked for (fftgen tune measures
# radix=32 for them; the H200's fp32 8192x8192 takes it): 8192-point rows at 32 points a thread, then the
# 8-point columns
fftgen_shape_fields(8x8192 0 0 points fields)
foreach(p fp16 fp32)
  fftgen_add_sim(fftgen_8x8192_r32_${p} ${points} ${p} ", 0, 0, 0, 0, 0${fields}" --n 8x8192 --radix 32)
endforeach()
# fp16 with tensor cores in tiled passes, chosen pass by pass (--tensor-cores=P: what libfftgen's
# measured choices can ask for): two passes, one of two, a strided layout, a 2D shape whose columns
# alone use them, and a 3D shape.
fftgen_add_sim(fftgen_65536_tc_fp16 65536 fp16 ", 0, 0, 0, 0, 0" --tensor-cores)
fftgen_add_sim(fftgen_1048576_tc2_fp16 1048576 fp16 ", 0, 0, 0, 0, 0" --tensor-cores=2)
fftgen_add_sim(fftgen_2048_s2_4099_1_2048_tc_fp16 2048 fp16 ", 0, 2, 4099, 1, 2048" --tensor-cores
               --istride 2 --idist 4099 --ostride 1 --odist 2048)
fftgen_shape_fields(64x512 0 0 points fields)
fftgen_add_sim(fftgen_64x512_tc2_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 64x512 --tensor-cores=2)
fftgen_shape_fields(16x32x64 0 0 points fields)
fftgen_add_sim(fftgen_16x32x64_tc_fp16 ${points} fp16 ", 0, 0, 0, 0, 0${fields}" --n 16x32x64 --tensor-cores)

foreach(variant IN LISTS FFTGEN_TEST_STRIDED_SHAPES)
  string(REPLACE ":" ";" parts ${variant})
  list(GET parts 0 shape)
  list(GET parts 1 is)
  list(GET parts 2 id)
  list(GET parts 3 ie)
  list(GET parts 4 os)
  list(GET parts 5 od)
  list(GET parts 6 oe)
  fftgen_shape_fields(${shape} ${ie} ${oe} points fields)
  set(embed_flags "")
  if(NOT ie STREQUAL "0")
    list(APPEND embed_flags --inembed ${ie})
  endif()
  if(NOT oe STREQUAL "0")
    list(APPEND embed_flags --onembed ${oe})
  endif()
  foreach(p IN LISTS FFTGEN_TEST_PRECISIONS)
    fftgen_add_sim(fftgen_${shape}_s${is}_${id}_${os}_${od}_${p} ${points} ${p}
                   ", 0, ${is}, ${id}, ${os}, ${od}${fields}" --n ${shape} --istride ${is} --idist ${id}
                   --ostride ${os} --odist ${od} ${embed_flags})
  endforeach()
endforeach()

add_library(fftgen_sim_kernels STATIC ${FFTGEN_SIM_SOURCES})
# the simulation writes every per-thread index into every phase; not all are used in each
target_compile_options(fftgen_sim_kernels PRIVATE -O2 -Wno-unused-variable -Wno-unused-but-set-variable)

# Multi-pass, strided and 2D/3D files, compiled with nvcc too: their host launch functions exist only there.
foreach(spec "65536;fp32;--cluster;1" "2097152;fp16" "64;fp32;--istride;3;--idist;200" "65536;fp16;--ostride;2;--odist;131072"
             "512x256;fp16" "64x64x64;fp32" "16x32;fp32;--istride;2;--idist;1100;--inembed;40"
             "1024x512;fp16;--order;columns-first")
  list(GET spec 0 n)
  list(GET spec 1 p)
  set(layout "")
  list(LENGTH spec length)
  if(length GREATER 2)
    list(SUBLIST spec 2 -1 layout)
  endif()
  string(REPLACE ";" "_" tag "${spec}")
  string(REPLACE "-" "" tag "${tag}")
  set(cu ${CMAKE_BINARY_DIR}/kernels/multi_${tag}.cu)
  add_custom_command(OUTPUT ${cu}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/kernels
    COMMAND fftgen --n ${n} --precision ${p} ${layout} --name multi_${tag} -o ${cu}
    DEPENDS fftgen VERBATIM)
  list(APPEND FFTGEN_CUDA_SOURCES_SM80_UP ${cu})
endforeach()

# Thread-block clusters, sm_90 only: the planner's defaults for fp32 2^15 and 2^16 (one pass) and for the
# long columns of 8192x8192 fp32 and 4096x4096 fp16, and the twiddled columns of fp32 2^25.
set(FFTGEN_CUDA_SOURCES_SM90_UP)
foreach(spec 32768:fp32 65536:fp32 8192x8192:fp32 4096x4096:fp16 33554432:fp32)
  string(REPLACE ":" ";" spec ${spec})
  list(GET spec 0 n)
  list(GET spec 1 p)
  set(cu ${CMAKE_BINARY_DIR}/kernels/cluster_${n}_${p}.cu)
  add_custom_command(OUTPUT ${cu}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/kernels
    COMMAND fftgen --n ${n} --precision ${p} --name cluster_${n}_${p} -o ${cu}
    DEPENDS fftgen VERBATIM)
  list(APPEND FFTGEN_CUDA_SOURCES_SM90_UP ${cu})
endforeach()

# Prefetching kernels, sm_90 only (bulk copies): fp16 16384 radix 32 with computed twiddles, 8 transforms a
# block (the shipped table takes 16 and 32, which test_api runs through the library), and fp32 8192 in
# pairs. test_gpu.c runs them in batches that leave a block's last turns empty, and from inputs off a
# 16-byte boundary.
foreach(spec "16384;fp16;32;1;8" "8192;fp32;0;0;2")
  list(GET spec 0 n)
  list(GET spec 1 p)
  list(GET spec 2 r)
  list(GET spec 3 computed)
  list(GET spec 4 k)
  set(flags --prefetch ${k})
  if(NOT r EQUAL 0)
    list(APPEND flags --radix ${r})
  endif()
  if(computed)
    list(APPEND flags --computed-twiddles)
  endif()
  fftgen_add_gpu_kernel(fftgen_${n}_pf${k}_${p} ${n} ${p} FFTGEN_CUDA_SOURCES_SM90_UP ", 0, ${r}, ${computed}, ${k}"
                        ${flags})
endforeach()

# Tables of every kernel, for the tests. The launch functions are declared with void pointers:
# they take float2 or __half2 pointers and return cudaError_t, with the same calling convention.
foreach(kind sim gpu)
  file(WRITE ${CMAKE_BINARY_DIR}/${kind}_registry.c.in
    "/* Generated by cmake/kernels.cmake; do not edit. */\n#include \"kernel_registry.h\"\n\n"
    "${${kind}_decls}\nconst struct ${kind}_kernel ${kind}_kernels[] = {\n${${kind}_rows}};\n"
    "const int ${kind}_kernel_count = sizeof ${kind}_kernels / sizeof ${kind}_kernels[0];\n")
  # only touch the real file when it changes, so that tests do not rebuild needlessly
  configure_file(${CMAKE_BINARY_DIR}/${kind}_registry.c.in ${CMAKE_BINARY_DIR}/${kind}_registry.c COPYONLY)
endforeach()

add_library(fftgen_cuda_kernels_all STATIC ${FFTGEN_CUDA_SOURCES_ALL_ARCHS})
set_target_properties(fftgen_cuda_kernels_all PROPERTIES CUDA_ARCHITECTURES "75;80;90")
add_library(fftgen_cuda_kernels_sm80 STATIC ${FFTGEN_CUDA_SOURCES_SM80_UP})
set_target_properties(fftgen_cuda_kernels_sm80 PROPERTIES CUDA_ARCHITECTURES "80;90")
add_library(fftgen_cuda_kernels_sm90 STATIC ${FFTGEN_CUDA_SOURCES_SM90_UP})
set_target_properties(fftgen_cuda_kernels_sm90 PROPERTIES CUDA_ARCHITECTURES "90")
add_library(fftgen_cuda_shape_check OBJECT ${FFTGEN_CUDA_SHAPE_SOURCES})
set_target_properties(fftgen_cuda_shape_check PROPERTIES CUDA_ARCHITECTURES "90")
foreach(lib fftgen_cuda_kernels_all fftgen_cuda_kernels_sm80 fftgen_cuda_kernels_sm90 fftgen_cuda_shape_check)
  # -Werror: a kernel that spills or warns is a generator bug worth failing the build on
  target_compile_options(${lib} PRIVATE "SHELL:-Werror all-warnings")
  target_link_libraries(${lib} PUBLIC CUDA::cudart_static)
endforeach()
