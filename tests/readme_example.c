/* The README's library example made whole, as a user compiles it: a batch of fp16 4096-point
 * transforms, forward out of place, then the scaled inverse in place, and the round trip checked
 * against the input. tests/library_links.sh builds it against libfftgen every documented way.
 * Exit status: 0 when the round trip holds, 77 (skipped) where no GPU is present, 1 otherwise. */
#include <fftgen.h>

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { POINTS = 4096, BATCH = 64, COUNT = POINTS * BATCH };
/* fp16 storage rounds the input, the intermediate and the output: about 3e-4 in all (README) */
static const double ROUND_TRIP_BOUND = 1e-3;

static int cuda_failed(cudaError_t error, const char *call)
{
    if (error == cudaSuccess) return 0;
    fprintf(stderr, "readme_example: %s: %s\n", call, cudaGetErrorString(error));
    return 1;
}

static int fftgen_failed(fftgen_result result, const char *call)
{
    if (result == FFTGEN_SUCCESS) return 0;
    fprintf(stderr, "readme_example: %s: %s: %s\n", call, fftgen_result_string(result), fftgen_last_error());
    return 1;
}

int main(void)
{
    fftgen_plan plan;
    const fftgen_result planned = fftgen_plan_1d(&plan, POINTS, FFTGEN_FP16, BATCH, FFTGEN_SCALE_INVERSE);
    if (planned == FFTGEN_NO_DEVICE) {
        printf("readme_example: linked and ran; no GPU here to transform on (%s)\n", fftgen_last_error());
        return 77;
    }
    if (fftgen_failed(planned, "fftgen_plan_1d")) return 1;

    /* __half2 as two _Float16: random inputs in [-1, 1] */
    _Float16 *host = malloc(sizeof(_Float16) * 2 * COUNT), *back = malloc(sizeof(_Float16) * 2 * COUNT);
    if (host == NULL || back == NULL) return 1;
    srand(12345);
    for (int i = 0; i < 2 * COUNT; ++i) host[i] = (_Float16)(2.0 * rand() / RAND_MAX - 1.0);

    void *d_in = NULL, *d_out = NULL;
    cudaStream_t stream = NULL;
    int failed = cuda_failed(cudaMalloc(&d_in, sizeof(_Float16) * 2 * COUNT), "cudaMalloc") ||
                 cuda_failed(cudaMalloc(&d_out, sizeof(_Float16) * 2 * COUNT), "cudaMalloc") ||
                 cuda_failed(cudaStreamCreate(&stream), "cudaStreamCreate") ||
                 cuda_failed(cudaMemcpy(d_in, host, sizeof(_Float16) * 2 * COUNT, cudaMemcpyHostToDevice), "cudaMemcpy") ||
                 cuda_failed(cudaMemset(d_out, 0xff, sizeof(_Float16) * 2 * COUNT), "cudaMemset") || /* NaN poison */
                 fftgen_failed(fftgen_set_stream(plan, stream), "fftgen_set_stream") ||
                 fftgen_failed(fftgen_exec(plan, d_in, d_out, FFTGEN_FORWARD), "fftgen_exec forward") ||
                 fftgen_failed(fftgen_exec(plan, d_out, d_out, FFTGEN_INVERSE), "fftgen_exec inverse") ||
                 cuda_failed(cudaStreamSynchronize(stream), "cudaStreamSynchronize") ||
                 cuda_failed(cudaMemcpy(back, d_out, sizeof(_Float16) * 2 * COUNT, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (!failed) {
        double error = 0, norm = 0;
        for (int i = 0; i < 2 * COUNT; ++i) {
            const double difference = (double)back[i] - (double)host[i];
            error += difference * difference;
            norm += (double)host[i] * (double)host[i];
        }
        const double relative = sqrt(error / norm); /* NaN if any output kept the poison */
        printf("readme_example: %d fp16 transforms of %d points, forward then scaled inverse: relative L2"
               " error of the round trip %.3e\n", BATCH, POINTS, relative);
        failed = !(relative < ROUND_TRIP_BOUND);
    }
    failed |= fftgen_failed(fftgen_destroy(plan), "fftgen_destroy");
    if (stream != NULL) cudaStreamDestroy(stream);
    cudaFree(d_in);
    cudaFree(d_out);
    free(host);
    free(back);
    return failed ? 1 : 0;
}
