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
#include "templates.h"

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

/* DIR/KEY.EXTENSION in the cache folder: .cubin for kernels, .source for the render index. */
static int cache_file_path(const fftgen_hash *key, const char *extension, char *path, size_t len)
{
    char dir[4096], hex[33];
    if (fftgen_cache_dir(dir, sizeof dir) != 0) return -1;
    fftgen_hash_hex(key, hex);
    const int n = snprintf(path, len, "%s/%s.%s", dir, hex, extension);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

static int entry_path(const fftgen_hash *key, char *path, size_t len)
{
    return cache_file_path(key, "cubin", path, len);
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

/* The cubin of the source whose hash is given, for sm_<arch>: from a loaded kernel pack, from memory,
 * from disk, or compiled from `source` with NVRTC. Without `source` (a render skipped) nothing is
 * compiled, and a kernel found nowhere gives FFTGEN_JIT_DISABLED. Called with the lock held. */
static fftgen_result get_locked(const fftgen_hash *source_hash, const char *source, int arch, int allow_jit,
                                fftgen_cubin *cubin, char *log, size_t log_len)
{
    if (log_len > 0) log[0] = '\0';
    fftgen_hash key;
    /* packs first: a program that plans only what its packs hold needs no NVRTC at all */
    if (fftgen_pack_find_hashed(source_hash, arch, cubin)) {
        ++stats.pack_hits;
        return FFTGEN_SUCCESS;
    }
    fftgen_result result = cache_key(source_hash, arch, &key);
    if (result != FFTGEN_SUCCESS) {
        /* no NVRTC, so no key for the disk cache either: with JIT forbidden, say that */
        return allow_jit && source != NULL ? result : FFTGEN_JIT_DISABLED;
    }
    for (struct entry *e = entries; e != NULL; e = e->next)
        if (memcmp(&e->key, &key, sizeof key) == 0) {
            ++stats.memory_hits;
            cubin->data = e->data;
            cubin->size = e->size;
            return FFTGEN_SUCCESS;
        }

    struct entry *e = calloc(1, sizeof *e);
    if (e == NULL) return FFTGEN_OUT_OF_MEMORY;
    e->key = key;
    char path[4200];
    const int have_disk = entry_path(&key, path, sizeof path) == 0;
    const int found = have_disk ? read_entry(path, &e->data, &e->size) : 0;
    if (found == 1) {
        ++stats.disk_hits;
    } else {
        if (found < 0) ++stats.disk_rejects; /* never trusted: compiled again and replaced below */
        if (!allow_jit || source == NULL) {
            free(e);
            return FFTGEN_JIT_DISABLED;
        }
        char name[64];
        snprintf(name, sizeof name, "fftgen_sm_%d.cu", arch);
        result = fftgen_jit_compile(source, name, arch, &e->data, &e->size, log, log_len);
        if (result != FFTGEN_SUCCESS) {
            free(e);
            return result;
        }
        ++stats.compiles;
        /* a cache that cannot be written is not an error: the kernel is compiled again next time */
        if (have_disk && write_entry(path, e->data, e->size) == 0) ++stats.disk_writes;
    }
    e->next = entries;
    entries = e;
    cubin->data = e->data;
    cubin->size = e->size;
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_cache_get(const char *source, int arch, int allow_jit, fftgen_cubin *cubin, char *log,
                               size_t log_len)
{
    /* the source is hashed once; the pack and cache keys both derive from that */
    fftgen_hash source_hash;
    fftgen_hash_text(source, &source_hash);
    fftgen_pack_load_defaults();
    pthread_mutex_lock(&lock);
    const fftgen_result result = get_locked(&source_hash, source, arch, allow_jit, cubin, log, log_len);
    pthread_mutex_unlock(&lock);
    return result;
}

/* The render index: which source a render request gave (its identity's hash -> the source's hash),
 * so that a kernel seen before is found without rendering it again. In memory, and on disk beside
 * the cubins as IDENTITY.source files: a header, the source's hash, a checksum. */
#define INDEX_MAGIC "FFTGENI"
enum { INDEX_FORMAT = 1, INDEX_BYTES = 40 };

struct index_entry {
    fftgen_hash identity, source;
    struct index_entry *next;
};
static struct index_entry *index_entries;

static pthread_once_t templates_hashed = PTHREAD_ONCE_INIT;
static fftgen_hash templates_hash;

/* The embedded templates' text: a rebuilt library with other templates renders other text. */
static void hash_templates(void)
{
    fftgen_hash_init(&templates_hash);
    for (size_t i = 0; i < fftgen_embedded_template_count; ++i) {
        fftgen_hash_string(&templates_hash, fftgen_embedded_templates[i].module);
        fftgen_hash_update(&templates_hash, fftgen_embedded_templates[i].text, fftgen_embedded_templates[i].length);
    }
}

static int index_path(const fftgen_hash *identity, char *path, size_t len)
{
    return cache_file_path(identity, "source", path, len);
}

/* The source's hash of a request seen before, from memory or disk: 1, else 0 (none, or a damaged file,
 * which the next render replaces). */
static int index_find_locked(const fftgen_hash *identity, fftgen_hash *source)
{
    for (struct index_entry *e = index_entries; e != NULL; e = e->next)
        if (memcmp(&e->identity, identity, sizeof *identity) == 0) {
            *source = e->source;
            return 1;
        }
    char path[4200];
    if (index_path(identity, path, sizeof path) != 0) return 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    unsigned char bytes[INDEX_BYTES + 1];
    const size_t length = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    if (length != INDEX_BYTES || memcmp(bytes, INDEX_MAGIC, 8) != 0 || bytes[8] != INDEX_FORMAT ||
        read_u64(bytes + 32) != fftgen_checksum(bytes + 16, 16))
        return 0;
    struct index_entry *e = malloc(sizeof *e);
    if (e == NULL) return 0;
    e->identity = *identity;
    e->source.lane[0] = read_u64(bytes + 16);
    e->source.lane[1] = read_u64(bytes + 24);
    e->next = index_entries;
    index_entries = e;
    *source = e->source;
    return 1;
}

static void index_put_locked(const fftgen_hash *identity, const fftgen_hash *source)
{
    struct index_entry *e = index_entries;
    while (e != NULL && memcmp(&e->identity, identity, sizeof *identity) != 0) e = e->next;
    if (e == NULL && (e = malloc(sizeof *e)) != NULL) {
        e->identity = *identity;
        e->next = index_entries;
        index_entries = e;
    }
    if (e == NULL) return; /* out of memory: the request is rendered again next time */
    e->source = *source;
    char path[4200];
    if (index_path(identity, path, sizeof path) != 0) return;
    unsigned char bytes[INDEX_BYTES] = {0};
    memcpy(bytes, INDEX_MAGIC, 8);
    bytes[8] = INDEX_FORMAT;
    write_u64(bytes + 16, source->lane[0]);
    write_u64(bytes + 24, source->lane[1]);
    write_u64(bytes + 32, fftgen_checksum(bytes + 16, 16));
    char why[256];
    (void)fftgen_write_file(path, (const char *)bytes, sizeof bytes, why, sizeof why); /* a cache, as above */
}

fftgen_result fftgen_cache_get_rendered(const fftgen_render_request *request, int arch, int allow_jit,
                                        fftgen_cubin *cubin, char *why, size_t why_len)
{
    fftgen_pack_load_defaults();
    pthread_once(&templates_hashed, hash_templates);
    fftgen_hash identity_hash, source_hash;
    char *identity = fftgen_render_identity(request, why, why_len);
    const int indexed = identity != NULL; /* templates read from a folder are not */
    if (indexed) {
        fftgen_hash_init(&identity_hash);
        fftgen_hash_hash(&identity_hash, &templates_hash);
        fftgen_hash_string(&identity_hash, identity);
        free(identity);
        pthread_mutex_lock(&lock);
        const int skipped = index_find_locked(&identity_hash, &source_hash) &&
                            get_locked(&source_hash, NULL, arch, 0, cubin, why, why_len) == FFTGEN_SUCCESS;
        stats.renders_skipped += skipped;
        pthread_mutex_unlock(&lock);
        if (skipped) return FFTGEN_SUCCESS;
    }
    char *source = fftgen_render(request, why, why_len);
    if (source == NULL) return FFTGEN_GENERATOR_FAILED;
    fftgen_hash_text(source, &source_hash);
    pthread_mutex_lock(&lock);
    const fftgen_result result = get_locked(&source_hash, source, arch, allow_jit, cubin, why, why_len);
    if (result == FFTGEN_SUCCESS && indexed) index_put_locked(&identity_hash, &source_hash);
    pthread_mutex_unlock(&lock);
    free(source);
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
    while (index_entries != NULL) {
        struct index_entry *next = index_entries->next;
        free(index_entries);
        index_entries = next;
    }
    memset(&stats, 0, sizeof stats);
    pthread_mutex_unlock(&lock);
}
