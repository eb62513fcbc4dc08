#define _POSIX_C_SOURCE 200809L
#include "cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "jit.h"
#include "output_file.h"
#include "pack.h"
#include "render.h"

/* On-disk entry: a header, then the cubin. */
#define ENTRY_MAGIC "FFTGENC"
enum { ENTRY_FORMAT = 1, HEADER_BYTES = 32 };

struct entry {
    fftgen_hash key;
    void *data;
    size_t size;
    struct entry *next;
};

/* One lock for the whole cache: it also makes two threads that want the same kernel compile it
 * once, the second finding the first's result. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *entries;
static fftgen_cache_stats stats;

static fftgen_result cache_key(const fftgen_hash *source_hash, int arch, fftgen_hash *key)
{
    int major = 0, minor = 0;
    const fftgen_result version = fftgen_jit_version(&major, &minor);
    if (version != FFTGEN_SUCCESS) return version;
    char text[128];
    fftgen_hash_init(key);
    snprintf(text, sizeof text, "fftgen %s; nvrtc %d.%d; sm_%d; format %d", FFTGEN_VERSION, major, minor, arch,
             ENTRY_FORMAT);
    fftgen_hash_string(key, text);
    fftgen_jit_options(arch, text, sizeof text);
    fftgen_hash_string(key, text);
    fftgen_hash_hash(key, source_hash);
    return FFTGEN_SUCCESS;
}

int fftgen_cache_dir(char *dir, size_t len)
{
    const char *off = getenv("FFTGEN_CACHE");
    if (off != NULL && strcmp(off, "0") == 0) return -1;
    const char *explicit_dir = getenv("FFTGEN_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (explicit_dir && *explicit_dir) n = snprintf(dir, len, "%s", explicit_dir);
    else if (xdg && *xdg) n = snprintf(dir, len, "%s/fftgen", xdg);
    else if (home && *home) n = snprintf(dir, len, "%s/.cache/fftgen", home);
    else return -1;
    if (n < 0 || (size_t)n >= len) return -1;
    /* mkdir -p */
    for (char *p = dir + 1; *p; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

static int entry_path(const fftgen_hash *key, char *path, size_t len)
{
    char dir[4096], hex[33];
    if (fftgen_cache_dir(dir, sizeof dir) != 0) return -1;
    fftgen_hash_hex(key, hex);
    const int n = snprintf(path, len, "%s/%s.cubin", dir, hex);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int fftgen_cache_entry_path(const char *source, int arch, char *path, size_t len)
{
    fftgen_hash source_hash, key;
    fftgen_hash_text(source, &source_hash);
    if (cache_key(&source_hash, arch, &key) != FFTGEN_SUCCESS) return -1;
    return entry_path(&key, path, len);
}

static uint64_t read_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

static void write_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

/* Reads a disk entry; returns 1 with a malloc'd cubin, 0 if there is none, -1 if it is damaged. */
static int read_entry(const char *path, void **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    unsigned char header[HEADER_BYTES];
    int status = -1;
    if (fread(header, 1, sizeof header, f) == sizeof header && memcmp(header, ENTRY_MAGIC, 8) == 0 &&
        header[8] == ENTRY_FORMAT) {
        const uint64_t length = read_u64(header + 16), checksum = read_u64(header + 24);
        unsigned char *payload = length > 0 && length < ((uint64_t)1 << 32) ? malloc(length + 1) : NULL;
        /* one byte more than promised must not be there: a longer file is damaged too */
        if (payload != NULL && fread(payload, 1, length + 1, f) == length && fftgen_checksum(payload, length) == checksum) {
            *data = payload;
            *size = length;
            status = 1;
        } else {
            free(payload);
        }
    }
    fclose(f);
    return status;
}

static int write_entry(const char *path, const void *data, size_t size)
{
    unsigned char *buffer = malloc(HEADER_BYTES + size);
    if (buffer == NULL) return -1;
    memset(buffer, 0, HEADER_BYTES);
    memcpy(buffer, ENTRY_MAGIC, 8);
    buffer[8] = ENTRY_FORMAT;
    write_u64(buffer + 16, size);
    write_u64(buffer + 24, fftgen_checksum(data, size));
    memcpy(buffer + HEADER_BYTES, data, size);
    char why[256];
    const int status = fftgen_write_file(path, (const char *)buffer, HEADER_BYTES + size, why, sizeof why);
    free(buffer);
    return status;
}

fftgen_result fftgen_cache_get(const char *source, int arch, int allow_jit, fftgen_cubin *cubin, char *log,
                               size_t log_len)
{
    if (log_len > 0) log[0] = '\0';
    /* the source is hashed once; the pack and cache keys both derive from that */
    fftgen_hash source_hash, key;
    fftgen_hash_text(source, &source_hash);
    fftgen_pack_load_defaults();
    pthread_mutex_lock(&lock);
    fftgen_result result = FFTGEN_SUCCESS;
    /* packs first: a program that plans only what its packs hold needs no NVRTC at all */
    if (fftgen_pack_find_hashed(&source_hash, arch, cubin)) {
        ++stats.pack_hits;
        goto done;
    }
    result = cache_key(&source_hash, arch, &key);
    if (result != FFTGEN_SUCCESS) {
        /* no NVRTC, so no key for the disk cache either: with JIT forbidden, say that */
        if (!allow_jit) result = FFTGEN_JIT_DISABLED;
        goto done;
    }
    for (struct entry *e = entries; e != NULL; e = e->next)
        if (memcmp(&e->key, &key, sizeof key) == 0) {
            ++stats.memory_hits;
            cubin->data = e->data;
            cubin->size = e->size;
            goto done;
        }

    struct entry *e = calloc(1, sizeof *e);
    if (e == NULL) {
        result = FFTGEN_OUT_OF_MEMORY;
        goto done;
    }
    e->key = key;
    char path[4200];
    const int have_disk = entry_path(&key, path, sizeof path) == 0;
    const int found = have_disk ? read_entry(path, &e->data, &e->size) : 0;
    if (found == 1) {
        ++stats.disk_hits;
    } else {
        if (found < 0) ++stats.disk_rejects; /* never trusted: compiled again and replaced below */
        if (!allow_jit) {
            free(e);
            result = FFTGEN_JIT_DISABLED;
            goto done;
        }
        char name[64];
        snprintf(name, sizeof name, "fftgen_sm_%d.cu", arch);
        result = fftgen_jit_compile(source, name, arch, &e->data, &e->size, log, log_len);
        if (result != FFTGEN_SUCCESS) {
            free(e);
            goto done;
        }
        ++stats.compiles;
        /* a cache that cannot be written is not an error: the kernel is compiled again next time */
        if (have_disk && write_entry(path, e->data, e->size) == 0) ++stats.disk_writes;
    }
    e->next = entries;
    entries = e;
    cubin->data = e->data;
    cubin->size = e->size;
done:
    pthread_mutex_unlock(&lock);
    return result;
}

void fftgen_cache_get_stats(fftgen_cache_stats *out)
{
    pthread_mutex_lock(&lock);
    *out = stats;
    pthread_mutex_unlock(&lock);
}

void fftgen_cache_reset_for_tests(void)
{
    pthread_mutex_lock(&lock);
    while (entries != NULL) {
        struct entry *next = entries->next;
        free(entries->data);
        free(entries);
        entries = next;
    }
    memset(&stats, 0, sizeof stats);
    pthread_mutex_unlock(&lock);
}
