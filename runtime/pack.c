#define _POSIX_C_SOURCE 200809L
#include "pack.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_once.h"
#include "output_file.h"
#include "render.h"

#define PACK_MAGIC "FFTGENPK"
enum { PACK_FORMAT = 1, HEADER_BYTES = 48, DESCRIPTOR_BYTES = 256, SUMMARY_BYTES = 192 };

/* The default pack, linked into libfftgen by the build (default_pack.S); the fftgen command links
 * an empty one (generator/no_default_pack.c). */
extern const unsigned char fftgen_default_pack_data[];
extern const unsigned long long fftgen_default_pack_size;

struct loaded_pack {
    const unsigned char *data;
    size_t size;
    unsigned count;
    void *owned; /* a copy this module frees, or NULL */
    struct loaded_pack *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t defaults_loading = PTHREAD_MUTEX_INITIALIZER; /* fftgen_load_once's */
static struct loaded_pack *packs;
static int defaults_loaded;

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

void fftgen_pack_key(const fftgen_hash *source_hash, int arch, fftgen_hash *key)
{
    char text[64];
    snprintf(text, sizeof text, "fftgen pack kernel; sm_%d", arch);
    fftgen_hash_init(key);
    fftgen_hash_string(key, text);
    fftgen_hash_hash(key, source_hash);
}

fftgen_result fftgen_pack_write(const char *path, const fftgen_pack_entry *entries, int count, char *why,
                                size_t why_len)
{
    size_t size = HEADER_BYTES + (size_t)count * DESCRIPTOR_BYTES;
    for (int i = 0; i < count; ++i) size += entries[i].cubin_size;
    unsigned char *buffer = calloc(1, size);
    if (buffer == NULL) {
        snprintf(why, why_len, "out of memory for a %zu-byte pack", size);
        return FFTGEN_OUT_OF_MEMORY;
    }
    memcpy(buffer, PACK_MAGIC, 8);
    put_u32(buffer + 8, PACK_FORMAT);
    put_u32(buffer + 12, (uint32_t)count);
    snprintf((char *)buffer + 16, 16, "%s", FFTGEN_VERSION);
    put_u64(buffer + 32, size);
    size_t offset = HEADER_BYTES + (size_t)count * DESCRIPTOR_BYTES;
    for (int i = 0; i < count; ++i) {
        const fftgen_pack_entry *e = &entries[i];
        unsigned char *d = buffer + HEADER_BYTES + (size_t)i * DESCRIPTOR_BYTES;
        fftgen_hash source_hash, key;
        fftgen_hash_text(e->source, &source_hash);
        fftgen_pack_key(&source_hash, e->arch, &key);
        put_u64(d, key.lane[0]);
        put_u64(d + 8, key.lane[1]);
        put_u32(d + 16, (uint32_t)e->arch);
        put_u32(d + 20, (uint32_t)e->precision);
        put_u64(d + 24, (uint64_t)e->n);
        put_u32(d + 32, (uint32_t)e->passes);
        put_u64(d + 40, offset);
        put_u64(d + 48, e->cubin_size);
        put_u64(d + 56, fftgen_checksum(e->cubin, e->cubin_size));
        snprintf((char *)d + 64, SUMMARY_BYTES, "%s", e->summary ? e->summary : "");
        memcpy(buffer + offset, e->cubin, e->cubin_size);
        offset += e->cubin_size;
    }
    put_u64(buffer + 40, fftgen_checksum(buffer + HEADER_BYTES, size - HEADER_BYTES));
    const int written = fftgen_write_file(path, (const char *)buffer, size, why, why_len);
    free(buffer);
    return written == 0 ? FFTGEN_SUCCESS : FFTGEN_PACK_UNREADABLE;
}

/* Checks a whole pack: header, version, sizes, (verify) the checksum of everything after the header,
 * which covers every kernel and its descriptor, and (arch > 0) a kernel for arch. */
static fftgen_result check_pack(const unsigned char *data, size_t size, int arch, int verify, unsigned *count)
{
    if (size < HEADER_BYTES || memcmp(data, PACK_MAGIC, 8) != 0 || get_u32(data + 8) != PACK_FORMAT)
        return FFTGEN_PACK_CORRUPT;
    *count = get_u32(data + 12);
    if (get_u64(data + 32) != size || (size - HEADER_BYTES) / DESCRIPTOR_BYTES < *count ||
        (verify && fftgen_checksum(data + HEADER_BYTES, size - HEADER_BYTES) != get_u64(data + 40)))
        return FFTGEN_PACK_CORRUPT;
    char version[17] = {0};
    memcpy(version, data + 16, 16);
    /* the writer pads the version with zeros (the checksum does not cover the header) */
    for (size_t i = strlen(version); i < 16; ++i)
        if (version[i] != 0) return FFTGEN_PACK_CORRUPT;
    if (strcmp(version, FFTGEN_VERSION) != 0) return FFTGEN_PACK_WRONG_VERSION;
    int has_arch = arch <= 0;
    for (unsigned i = 0; i < *count; ++i) {
        const unsigned char *d = data + HEADER_BYTES + (size_t)i * DESCRIPTOR_BYTES;
        const uint64_t offset = get_u64(d + 40), length = get_u64(d + 48);
        if (offset > size || length > size - offset) return FFTGEN_PACK_CORRUPT;
        has_arch |= (int)get_u32(d + 16) == arch;
    }
    return has_arch ? FFTGEN_SUCCESS : FFTGEN_PACK_WRONG_ARCH;
}

static fftgen_result add_pack(const void *data, size_t size, int copy, int arch, int verify)
{
    unsigned count = 0;
    const fftgen_result checked = check_pack(data, size, arch, verify, &count);
    if (checked != FFTGEN_SUCCESS) return checked;
    struct loaded_pack *pack = calloc(1, sizeof *pack);
    if (pack == NULL) return FFTGEN_OUT_OF_MEMORY;
    if (copy) {
        pack->owned = malloc(size);
        if (pack->owned == NULL) {
            free(pack);
            return FFTGEN_OUT_OF_MEMORY;
        }
        memcpy(pack->owned, data, size);
        data = pack->owned;
    }
    pack->data = data;
    pack->size = size;
    pack->count = count;
    pthread_mutex_lock(&lock);
    pack->next = packs;
    packs = pack;
    pthread_mutex_unlock(&lock);
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_pack_add(const void *data, size_t size, int copy, int arch)
{
    return add_pack(data, size, copy, arch, 1);
}

fftgen_result fftgen_pack_add_file(const char *path, int arch)
{
    if (path == NULL) return FFTGEN_NULL_POINTER;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return FFTGEN_PACK_UNREADABLE;
    fftgen_result result = FFTGEN_PACK_UNREADABLE;
    unsigned char *data = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc(size > 0 ? (size_t)size : 1)) != NULL && fread(data, 1, (size_t)size, f) == (size_t)size)
        result = fftgen_pack_add(data, (size_t)size, 1, arch);
    free(data);
    fclose(f);
    return result;
}

static void load_embedded_and_path(void)
{
    const char *use_default = getenv("FFTGEN_DEFAULT_PACK");
    if (fftgen_default_pack_size > 0 && !(use_default && strcmp(use_default, "0") == 0)) {
        /* built into the library's read-only data, where no damaged file can reach it: its structure
         * is checked, and its 9 MB are not summed again at every start (25 ms) */
        const fftgen_result loaded = add_pack(fftgen_default_pack_data, fftgen_default_pack_size, 0, 0, 0);
        if (loaded != FFTGEN_SUCCESS)
            fprintf(stderr, "fftgen: the embedded kernel pack is unusable: %s\n", fftgen_result_string(loaded));
    }
    const char *list = getenv("FFTGEN_PACK_PATH");
    if (list == NULL || *list == '\0') return;
    char *paths = strdup(list);
    if (paths == NULL) return;
    char *save = NULL;
    for (char *path = strtok_r(paths, ":", &save); path != NULL; path = strtok_r(NULL, ":", &save)) {
        const fftgen_result loaded = fftgen_pack_add_file(path, 0);
        /* a bad pack on the path must not stop planning: it is skipped, and said once */
        if (loaded != FFTGEN_SUCCESS)
            fprintf(stderr, "fftgen: skipping kernel pack %s: %s\n", path, fftgen_result_string(loaded));
    }
    free(paths);
}

void fftgen_pack_load_defaults(void)
{
    fftgen_load_once(&defaults_loading, &lock, &defaults_loaded, load_embedded_and_path);
}

int fftgen_pack_find(const char *source, int arch, fftgen_cubin *cubin)
{
    fftgen_hash source_hash;
    fftgen_hash_text(source, &source_hash);
    return fftgen_pack_find_hashed(&source_hash, arch, cubin);
}

int fftgen_pack_find_hashed(const fftgen_hash *source_hash, int arch, fftgen_cubin *cubin)
{
    fftgen_hash key;
    fftgen_pack_key(source_hash, arch, &key);
    int found = 0;
    pthread_mutex_lock(&lock);
    for (const struct loaded_pack *pack = packs; pack != NULL && !found; pack = pack->next)
        for (unsigned i = 0; i < pack->count; ++i) {
            const unsigned char *d = pack->data + HEADER_BYTES + (size_t)i * DESCRIPTOR_BYTES;
            if (get_u64(d) == key.lane[0] && get_u64(d + 8) == key.lane[1] && (int)get_u32(d + 16) == arch) {
                cubin->data = pack->data + get_u64(d + 40);
                cubin->size = get_u64(d + 48);
                found = 1;
                break;
            }
        }
    pthread_mutex_unlock(&lock);
    return found;
}

void fftgen_pack_reset_for_tests(void)
{
    pthread_mutex_lock(&lock);
    while (packs != NULL) {
        struct loaded_pack *next = packs->next;
        free(packs->owned);
        free(packs);
        packs = next;
    }
    defaults_loaded = 0;
    pthread_mutex_unlock(&lock);
}
