#define _POSIX_C_SOURCE 200809L
#include "jit.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_detail.h"

/* The NVRTC entry points fftgen uses, resolved from the library at run time. */
struct nvrtc_api {
    nvrtcResult (*version)(int *, int *);
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                          const char *const *);
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*log_size)(nvrtcProgram, size_t *);
    nvrtcResult (*log)(nvrtcProgram, char *);
    nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
    nvrtcResult (*cubin)(nvrtcProgram, char *);
    nvrtcResult (*destroy)(nvrtcProgram *);
    const char *(*error_string)(nvrtcResult);
};

static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvrtc_api api;
static int api_loaded;

/* Loads NVRTC once it is needed; a failure is not remembered, so a later call may try again. */
static fftgen_result load_nvrtc(void)
{
    pthread_mutex_lock(&api_lock);
    fftgen_result result = FFTGEN_SUCCESS;
    if (!api_loaded) {
        const char *path = getenv("FFTGEN_NVRTC");
        void *handle = dlopen(path && *path ? path : "libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
        /* the toolkit's own folder, for machines where it is not on the loader's path */
        if (handle == NULL && !(path && *path))
            handle = dlopen("/usr/local/cuda/lib64/libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
        struct nvrtc_api a;
        if (handle != NULL) {
            *(void **)&a.version = dlsym(handle, "nvrtcVersion");
            *(void **)&a.create = dlsym(handle, "nvrtcCreateProgram");
            *(void **)&a.compile = dlsym(handle, "nvrtcCompileProgram");
            *(void **)&a.log_size = dlsym(handle, "nvrtcGetProgramLogSize");
            *(void **)&a.log = dlsym(handle, "nvrtcGetProgramLog");
            *(void **)&a.cubin_size = dlsym(handle, "nvrtcGetCUBINSize");
            *(void **)&a.cubin = dlsym(handle, "nvrtcGetCUBIN");
            *(void **)&a.destroy = dlsym(handle, "nvrtcDestroyProgram");
            *(void **)&a.error_string = dlsym(handle, "nvrtcGetErrorString");
        }
        if (handle == NULL || !a.version || !a.create || !a.compile || !a.log_size || !a.log || !a.cubin_size ||
            !a.cubin || !a.destroy || !a.error_string) {
            const char *reason = handle == NULL ? dlerror() : NULL;
            if (handle != NULL) dlclose(handle);
            result = fftgen_detail(FFTGEN_NVRTC_UNAVAILABLE,
                                   "could not load NVRTC from %s: %s (FFTGEN_NVRTC names the library)",
                                   path && *path ? path : "libnvrtc.so.13 or /usr/local/cuda/lib64",
                                   reason ? reason : "a function of NVRTC's API is missing from it");
        } else {
            api = a;
            api_loaded = 1;
        }
    }
    pthread_mutex_unlock(&api_lock);
    return result;
}

fftgen_result fftgen_jit_version(int *major, int *minor)
{
    const fftgen_result loaded = load_nvrtc();
    if (loaded != FFTGEN_SUCCESS) return loaded;
    return api.version(major, minor) == NVRTC_SUCCESS ? FFTGEN_SUCCESS : FFTGEN_NVRTC_UNAVAILABLE;
}

void fftgen_jit_options(int arch, char *out, size_t len)
{
    snprintf(out, len, "--gpu-architecture=sm_%d", arch);
}

fftgen_result fftgen_jit_compile(const char *source, const char *name, int arch, void **cubin, size_t *size,
                                 char *log, size_t log_len)
{
    *cubin = NULL;
    *size = 0;
    if (log_len > 0) log[0] = '\0';
    const fftgen_result loaded = load_nvrtc();
    if (loaded != FFTGEN_SUCCESS) return loaded;

    char option[64];
    fftgen_jit_options(arch, option, sizeof option);
    const char *options[] = {option};
    nvrtcProgram program;
    if (api.create(&program, source, name, 0, NULL, NULL) != NVRTC_SUCCESS) return FFTGEN_NVRTC_FAILED;
    const nvrtcResult compiled = api.compile(program, 1, options);
    fftgen_result result = FFTGEN_SUCCESS;
    if (compiled != NVRTC_SUCCESS) {
        size_t full = 0;
        char *text = NULL;
        if (api.log_size(program, &full) == NVRTC_SUCCESS && (text = malloc(full + 1)) != NULL &&
            api.log(program, text) == NVRTC_SUCCESS)
            snprintf(log, log_len, "%s: %s", api.error_string(compiled), text);
        else
            snprintf(log, log_len, "%s", api.error_string(compiled));
        free(text);
        result = FFTGEN_NVRTC_FAILED;
    } else if (api.cubin_size(program, size) != NVRTC_SUCCESS || *size == 0 || (*cubin = malloc(*size)) == NULL ||
               api.cubin(program, *cubin) != NVRTC_SUCCESS) {
        free(*cubin);
        *cubin = NULL;
        *size = 0;
        result = FFTGEN_NVRTC_FAILED;
        snprintf(log, log_len, "NVRTC produced no cubin");
    }
    api.destroy(&program);
    return result;
}
