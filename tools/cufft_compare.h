/* Runs an fftgen kernel and cuFFT on the same device buffers and compares them: time (CUDA
 * events, warm-up, median of many runs), relative L2 error against cuFFT Z2Z (double) on the same
 * unrounded random inputs, and for scale the bandwidth of a device-to-device copy of the same bytes.
 * The three are timed in turns, one call of each per round. */
#ifndef FFTGEN_TOOLS_CUFFT_COMPARE_H
#define FFTGEN_TOOLS_CUFFT_COMPARE_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A generated launch function (float2 or __half2 pointers, passed as void*). */
typedef cudaError_t (*fftgen_launch_fn)(const void *in, void *out, int batch, cudaStream_t stream);

struct compare_config {
    int n;         /* points per transform */
    int fp16;      /* storage: 0 float2, 1 __half2 */
    int batch;
    int inverse;   /* 0 forward, 1 inverse */
    int warmup;
    int runs;
    int back_to_back; /* calls in a row between the events of a timed run (0 or 1: one); the time per call */
    unsigned long long seed;
    int rank;      /* 2 or 3: a shape, row-major; 0 or 1: 1D of n points */
    int shape[3];
    const char *label; /* fftgen's precision in the table ("split"); NULL: fp16 or fp32 */
};

struct compare_result {
    float fftgen_ms, fftgen_ms_min, fftgen_ms_max; /* median, and the spread of the runs */
    float cufft_ms, cufft_ms_min, cufft_ms_max;
    double fftgen_error, cufft_error;             /* relative L2 against cuFFT Z2Z */
    double copy_gbps;                             /* device-to-device, bytes read + written */
    double bytes;                                 /* one ideal pass: storage read + written */
};

/* Returns 0, or -1 after printing which CUDA or cuFFT call failed. */
int compare_with_cufft(const struct compare_config *config, fftgen_launch_fn launch, struct compare_result *result);

/* compare_with_cufft keeps its device buffers for the next call (one allocation for a whole run);
 * this frees them. */
void release_compare_buffers(void);

/* One table row per comparison, with a header; rows give times, GB/s, % of copy bandwidth, the
 * speed-up over cuFFT and both errors. */
void print_compare_header(void);
/* "4096", "512x256" or "64x64x64". */
void compare_shape_text(const struct compare_config *config, char *text, size_t len);
void print_compare_row(const struct compare_config *config, const struct compare_result *result);

/* Name and driver of device 0, for report headers; returns -1 where there is no usable GPU. */
int describe_device(char *name, size_t name_len, int *driver_version, int *runtime_version);

#ifdef __cplusplus
}
#endif

#endif
