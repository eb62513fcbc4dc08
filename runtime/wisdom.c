#define _POSIX_C_SOURCE 200809L
#include "wisdom.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c_locale.h"
#include "cache.h"
#include "load_once.h"
#include "output_file.h"
#include "text_buffer.h"

/* The shipped table (runtime/tuned_choices.wisdom), linked in as read-only data. */
extern const char fftgen_shipped_wisdom_data[];
extern const unsigned long long fftgen_shipped_wisdom_size;

enum { MAX_LINE = 512 };

/* The choices a line makes pass by pass, as lists of passes (KEY=1,3), in the order lines write them;
 * only: the one precision they apply to (an error in the others), or ANY_PRECISION. */
enum { ANY_PRECISION = -1 };
static const struct {
    const char *key;
    size_t field; /* an int of fftgen_choice */
    int only;     /* an fftgen_kernel_precision, or ANY_PRECISION */
} PASS_WORDS[] = {
    {"l2-prefetch-passes", offsetof(fftgen_choice, l2_prefetch_passes), ANY_PRECISION},
    {"twiddle-powers", offsetof(fftgen_choice, twiddle_powers), FFTGEN_KERNEL_FP16},
    {"radix32-passes", offsetof(fftgen_choice, radix32_passes), ANY_PRECISION},
    {"column-registers", offsetof(fftgen_choice, column_register_passes), ANY_PRECISION},
    {"computed-twiddles", offsetof(fftgen_choice, computed_twiddle_passes), FFTGEN_KERNEL_FP16},
    {"column-pairs", offsetof(fftgen_choice, column_pair_passes), FFTGEN_KERNEL_FP16},
    {"row-registers", offsetof(fftgen_choice, row_register_passes), FFTGEN_KERNEL_FP32},
    {"l2-fetch-256", offsetof(fftgen_choice, l2_fetch_256_passes), ANY_PRECISION},
    {"tma-columns", offsetof(fftgen_choice, tma_column_passes), ANY_PRECISION},
    {"tile-pairs", offsetof(fftgen_choice, tile_pair_passes), ANY_PRECISION},
};
enum { PASS_WORD_COUNT = sizeof PASS_WORDS / sizeof PASS_WORDS[0] };

static int *pass_word_field(fftgen_choice *choice, int k)
{
    return (int *)((char *)choice + PASS_WORDS[k].field);
}

static int pass_word_value(const fftgen_choice *choice, int k)
{
    return *(const int *)((const char *)choice + PASS_WORDS[k].field);
}

static int pass_word_index(const char *key)
{
    for (int k = 0; k < PASS_WORD_COUNT; ++k)
        if (strcmp(key, PASS_WORDS[k].key) == 0) return k;
    return -1;
}

/* Every section's entries are kept, each with its section's device; fftgen_wisdom_find picks the
 * ones that serve the device it plans for (a process may plan for several). */
struct stored_entry {
    fftgen_device_key section;
    int shipped;
    int first_of_arch; /* shipped: the table's first section of its architecture */
    fftgen_wisdom_entry entry;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t defaults_loading = PTHREAD_MUTEX_INITIALIZER; /* fftgen_load_once's */
static struct stored_entry *stored;
static int stored_count, stored_capacity;
static int defaults_loaded;

/* One parsed line. */
typedef enum { LINE_EMPTY, LINE_HEADER, LINE_DEVICE, LINE_ENTRY } line_kind;

static int same_key(const fftgen_device_key *a, const fftgen_device_key *b)
{
    return a->arch == b->arch && strcmp(a->device, b->device) == 0 && strcmp(a->driver, b->driver) == 0 &&
           strcmp(a->version, b->version) == 0;
}

static int is_power_of_two(long long n)
{
    return n >= 2 && (n & (n - 1)) == 0;
}

static int parse_shape(const char *text, fftgen_wisdom_entry *entry)
{
    entry->rank = 0;
    long long points = 1;
    for (const char *at = text;;) {
        char *end;
        errno = 0;
        const long long size = strtoll(at, &end, 10);
        if (end == at || errno == ERANGE || !is_power_of_two(size) || entry->rank == FFTGEN_MAX_RANK ||
            (*end != '\0' && *end != 'x') || size > (1LL << 30) / points)
            return -1;
        points *= size;
        entry->shape[entry->rank++] = size;
        if (*end == '\0') return 0;
        at = end + 1;
    }
}

static int parse_time(const char *text, double *ms)
{
    char *end;
    fftgen_c_locale scope; /* "0.41" as fftgen tune writes it, whatever the program's locale */
    fftgen_c_locale_begin(&scope);
    *ms = strtod(text, &end);
    fftgen_c_locale_end(&scope);
    return end != text && *end == '\0' && *ms >= 0 ? 0 : -1;
}

/* A whole number that `supported` accepts, else *value 0: 0, or -1. */
static int parse_supported(const char *text, int (*supported)(long long), int *value)
{
    char *end;
    const long long parsed = strtoll(text, &end, 10);
    const int bad = end == text || *end != '\0' || !supported(parsed);
    *value = bad ? 0 : (int)parsed;
    return bad ? -1 : 0;
}

/* "fp16 65536 tensor-cores=2 max-tile=8 ms=0.41 default-ms=0.45" */
static int parse_entry(char *line, fftgen_wisdom_entry *entry, char *why, size_t why_len)
{
    memset(entry, 0, sizeof *entry);
    char *save = NULL;
    const char *precision = strtok_r(line, " \t", &save);
    const char *shape = strtok_r(NULL, " \t", &save);
    const int parsed = precision ? fftgen_precision_parse(precision) : -1;
    if (parsed < 0) {
        snprintf(why, why_len, "'%s' is not a precision (fp32, fp16, split, split-papers) or 'device'",
                 precision ? precision : "");
        return -1;
    }
    entry->precision = (fftgen_kernel_precision)parsed;
    if (shape == NULL || parse_shape(shape, entry) != 0) {
        snprintf(why, why_len, "'%s' is not a size or shape of powers of two (at most 2^30 points)",
                 shape ? shape : "");
        return -1;
    }
    int seen = 0;
    for (char *word = strtok_r(NULL, " \t", &save); word != NULL; word = strtok_r(NULL, " \t", &save)) {
        char *value = strchr(word, '=');
        if (value == NULL) {
            snprintf(why, why_len, "'%s' is not key=value", word);
            return -1;
        }
        *value++ = '\0';
        int bad = 0;
        const int pass_word = pass_word_index(word);
        if (pass_word >= 0) {
            int *mask = pass_word_field(&entry->choice, pass_word);
            *mask = fftgen_pass_mask_parse(value);
            bad = *mask < 0;
        } else if (strcmp(word, "tensor-cores") == 0) {
            entry->choice.tensor_cores = fftgen_pass_mask_parse(value);
            bad = entry->choice.tensor_cores < 0;
            seen |= 1;
        } else if (strcmp(word, "max-tile") == 0) {
            bad = fftgen_tile_caps_parse(value, &entry->choice.max_tile);
            seen |= 2;
        } else if (strcmp(word, "cluster") == 0) {
            entry->choice.cluster = fftgen_cluster_parse(value);
            bad = entry->choice.cluster < 0;
        } else if (strcmp(word, "order") == 0) {
            entry->choice.columns_first = fftgen_order_parse(value);
            bad = entry->choice.columns_first < 0;
        } else if (strcmp(word, "split-columns") == 0) {
            entry->choice.split_columns = strcmp(value, "1") == 0;
            bad = !entry->choice.split_columns && strcmp(value, "0") != 0;
        } else if (strcmp(word, "radix") == 0) {
            bad = parse_supported(value, fftgen_radix_supported, &entry->choice.max_radix);
        } else if (strcmp(word, "block-threads") == 0) {
            bad = parse_supported(value, fftgen_block_threads_supported, &entry->choice.block_threads);
        } else if (strcmp(word, "prefetch") == 0) {
            bad = parse_supported(value, fftgen_prefetch_supported, &entry->choice.prefetch);
        } else if (strcmp(word, "l2-prefetch") == 0) {
            entry->choice.l2_prefetch_kb = fftgen_l2_prefetch_parse(value);
            bad = entry->choice.l2_prefetch_kb == 0;
        } else if (strcmp(word, "four-step") == 0) {
            bad = parse_supported(value, fftgen_four_step_supported, &entry->choice.four_step_columns);
        } else if (strcmp(word, "max-points") == 0) {
            char *end;
            errno = 0;
            entry->max_points = strtoll(value, &end, 10);
            bad = end == value || *end != '\0' || errno == ERANGE || entry->max_points < 1 ||
                  entry->max_points > FFTGEN_WISDOM_MAX_POINTS;
        } else if (strcmp(word, "ms") == 0) {
            bad = parse_time(value, &entry->ms);
        } else if (strcmp(word, "default-ms") == 0) {
            bad = parse_time(value, &entry->default_ms);
        } else {
            snprintf(why, why_len,
                     "unknown key '%s' (expected tensor-cores, max-tile, cluster, order, split-columns, radix,"
                     " block-threads, prefetch, l2-prefetch, l2-prefetch-passes, twiddle-powers, radix32-passes,"
                     " column-registers, computed-twiddles, column-pairs, row-registers, l2-fetch-256, tma-columns,"
                     " tile-pairs, four-step, max-points, ms, default-ms)",
                     word);
            return -1;
        }
        if (bad) {
            snprintf(why, why_len, "bad value '%s' for %s", value, word);
            return -1;
        }
    }
    if (seen != 3) {
        snprintf(why, why_len, "an entry needs tensor-cores= and max-tile=");
        return -1;
    }
    if (entry->choice.columns_first && entry->rank != 2) {
        snprintf(why, why_len, "order=columns-first applies to 2D shapes only");
        return -1;
    }
    if (entry->choice.split_columns && entry->rank == 1) {
        snprintf(why, why_len, "split-columns=1 applies to 2D and 3D shapes only");
        return -1;
    }
    const int four_step = entry->choice.four_step_columns;
    if (four_step != 0 && (entry->rank > 2 || four_step >= entry->shape[0])) {
        snprintf(why, why_len, "four-step= applies to 1D sizes and 2D shapes only, with columns shorter than the size"
                 " (2D: than dimension 0)");
        return -1;
    }
    if (entry->choice.block_threads != 0 && entry->rank != 1) {
        snprintf(why, why_len, "block-threads= applies to 1D sizes only");
        return -1;
    }
    if (entry->choice.l2_prefetch_passes != 0 && entry->choice.l2_prefetch_kb == FFTGEN_L2_PREFETCH_OFF) {
        snprintf(why, why_len, "l2-prefetch-passes= names passes for an L2 prefetch that l2-prefetch=0 turns off");
        return -1;
    }
    for (int k = 0; k < PASS_WORD_COUNT; ++k) {
        const int only = PASS_WORDS[k].only;
        if (only != ANY_PRECISION && pass_word_value(&entry->choice, k) != 0 && (int)entry->precision != only) {
            snprintf(why, why_len, "%s= applies to %s only", PASS_WORDS[k].key,
                     fftgen_precision_name((fftgen_kernel_precision)only));
            return -1;
        }
    }
    return 0;
}

/* device "NAME" sm_90 driver 580.159.04 fftgen 0.1.0 */
static int parse_device(char *line, fftgen_device_key *key, char *why, size_t why_len)
{
    memset(key, 0, sizeof *key);
    char *open = strchr(line, '"'), *close = open ? strchr(open + 1, '"') : NULL;
    if (close == NULL || (size_t)(close - open - 1) >= sizeof key->device) {
        snprintf(why, why_len, "a device line names the device in double quotes");
        return -1;
    }
    memcpy(key->device, open + 1, (size_t)(close - open - 1));
    char driver[64], version[64];
    int arch, used = 0;
    if (sscanf(close + 1, " sm_%d driver %63s fftgen %63s %n", &arch, driver, version, &used) != 3 ||
        close[1 + used] != '\0' || strlen(driver) >= sizeof key->driver || strlen(version) >= sizeof key->version ||
        fftgen_arch_shared_limit(arch) < 0) {
        snprintf(why, why_len, "expected: device \"NAME\" sm_XY driver VERSION fftgen VERSION (a known sm_XY)");
        return -1;
    }
    key->arch = arch;
    snprintf(key->driver, sizeof key->driver, "%s", driver);
    snprintf(key->version, sizeof key->version, "%s", version);
    return 0;
}

/* Copies one line (comment and trailing blanks cut) into `line`; returns the kind, or -1. */
static int parse_line(const char *start, size_t length, char *line, fftgen_device_key *key,
                      fftgen_wisdom_entry *entry, char *why, size_t why_len)
{
    if (length >= MAX_LINE) {
        snprintf(why, why_len, "line longer than %d characters", MAX_LINE - 1);
        return -1;
    }
    memcpy(line, start, length);
    line[length] = '\0';
    if (memchr(line, '\0', length) != NULL) {
        snprintf(why, why_len, "a NUL byte: not a text file");
        return -1;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    size_t end = strlen(line);
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r')) line[--end] = '\0';
    char *text = line + strspn(line, " \t");
    if (*text == '\0') return LINE_EMPTY;
    int format;
    char extra;
    if (sscanf(text, "fftgen-wisdom %d %c", &format, &extra) == 1) {
        if (format == FFTGEN_WISDOM_FORMAT) return LINE_HEADER;
        snprintf(why, why_len, "wisdom format %d; this fftgen reads format %d", format, FFTGEN_WISDOM_FORMAT);
        return -1;
    }
    if (strncmp(text, "device ", 7) == 0) return parse_device(text, key, why, why_len) == 0 ? LINE_DEVICE : -1;
    return parse_entry(text, entry, why, why_len) == 0 ? LINE_ENTRY : -1;
}

/* Walks the text, calling `take` for each entry with its section's key. 0, or -1 with `why`. */
typedef void (*entry_sink)(void *context, const fftgen_device_key *section, const fftgen_wisdom_entry *entry);

static int walk(const char *text, size_t size, entry_sink take, void *context, char *why, size_t why_len)
{
    char line[MAX_LINE], reason[512] = "";
    fftgen_device_key section, parsed_key;
    int have_header = 0, have_section = 0, number = 0;
    for (size_t at = 0; at < size;) {
        const char *newline = memchr(text + at, '\n', size - at);
        const size_t length = newline ? (size_t)(newline - (text + at)) : size - at;
        ++number;
        fftgen_wisdom_entry entry;
        const int kind = parse_line(text + at, length, line, &parsed_key, &entry, reason, sizeof reason);
        at += length + (newline != NULL);
        if (kind == LINE_EMPTY) continue;
        if (!have_header && kind != LINE_HEADER && strncmp(reason, "wisdom format", 13) != 0) {
            snprintf(why, why_len, "line %d: not a wisdom file (its first line should be 'fftgen-wisdom %d')",
                     number, FFTGEN_WISDOM_FORMAT);
            return -1;
        }
        if (kind < 0 || (kind == LINE_HEADER && have_header) || (kind == LINE_ENTRY && !have_section)) {
            if (kind == LINE_HEADER) snprintf(reason, sizeof reason, "a second 'fftgen-wisdom' line");
            if (kind == LINE_ENTRY) snprintf(reason, sizeof reason, "an entry before any 'device' line");
            snprintf(why, why_len, "line %d: %s", number, reason);
            return -1;
        }
        if (kind == LINE_HEADER) have_header = 1;
        if (kind == LINE_DEVICE) {
            section = parsed_key;
            have_section = 1;
        }
        if (kind == LINE_ENTRY && take != NULL) take(context, &section, &entry);
    }
    if (!have_header) {
        snprintf(why, why_len, "empty: not a wisdom file (no 'fftgen-wisdom %d' line)", FFTGEN_WISDOM_FORMAT);
        return -1;
    }
    return 0;
}

/* fftgen_wisdom_sections' sink: each section's key once, in the order met. */
struct section_list {
    fftgen_device_key *keys;
    int count, max;
};

static void list_section(void *context, const fftgen_device_key *section, const fftgen_wisdom_entry *entry)
{
    (void)entry;
    struct section_list *list = context;
    for (int i = 0; i < list->count; ++i)
        if (same_key(&list->keys[i], section)) return;
    if (list->count < list->max) list->keys[list->count++] = *section;
}

int fftgen_wisdom_sections(const char *text, size_t size, fftgen_device_key *keys, int max)
{
    char why[512];
    struct section_list list = {keys, 0, max};
    return walk(text, size, list_section, &list, why, sizeof why) == 0 ? list.count : -1;
}

enum { MAX_ARCHS = 16 };

struct add_context {
    int shipped;
    int failed;
    /* shipped: the device of each architecture's first section, in the order met */
    int arch_count;
    int archs[MAX_ARCHS];
    char arch_devices[MAX_ARCHS][sizeof ((fftgen_device_key *)0)->device];
};

static int same_shape(const fftgen_wisdom_entry *a, const fftgen_wisdom_entry *b)
{
    if (a->precision != b->precision || a->rank != b->rank) return 0;
    for (int d = 0; d < a->rank; ++d)
        if (a->shape[d] != b->shape[d]) return 0;
    return 1;
}

/* The same line's place: a later one replaces it (the same shape and the same calls served). */
static int same_transform(const fftgen_wisdom_entry *a, const fftgen_wisdom_entry *b)
{
    return same_shape(a, b) && a->max_points == b->max_points;
}

/* Whether `section` is the shipped table's first section of its architecture. That one serves every
 * device of the architecture; a later one, measured on another device of it (an H200 beside the
 * H100), serves only the device it names, and first: the same kernels' best choices differ where the
 * bandwidth per SM differs. */
static int first_of_arch(struct add_context *add, const fftgen_device_key *section)
{
    for (int i = 0; i < add->arch_count; ++i)
        if (add->archs[i] == section->arch) return strcmp(add->arch_devices[i], section->device) == 0;
    if (add->arch_count == MAX_ARCHS) return 0;
    add->archs[add->arch_count] = section->arch;
    snprintf(add->arch_devices[add->arch_count], sizeof add->arch_devices[0], "%s", section->device);
    ++add->arch_count;
    return 1;
}

/* Under the lock. */
static void store(void *context, const fftgen_device_key *section, const fftgen_wisdom_entry *entry)
{
    struct add_context *add = context;
    const int first = add->shipped && first_of_arch(add, section);
    for (int i = 0; i < stored_count; ++i)
        if (stored[i].shipped == add->shipped && same_key(&stored[i].section, section) &&
            same_transform(&stored[i].entry, entry)) {
            stored[i].entry = *entry;
            return;
        }
    if (stored_count == stored_capacity) {
        const int capacity = stored_capacity ? 2 * stored_capacity : 64;
        struct stored_entry *grown = realloc(stored, (size_t)capacity * sizeof *grown);
        if (grown == NULL) {
            add->failed = 1;
            return;
        }
        stored = grown;
        stored_capacity = capacity;
    }
    const struct stored_entry added = {*section, add->shipped, first, *entry};
    stored[stored_count++] = added;
}

fftgen_result fftgen_wisdom_add_text(const char *text, size_t size, int shipped, char *why, size_t why_len)
{
    if (walk(text, size, NULL, NULL, why, why_len) != 0) return FFTGEN_WISDOM_CORRUPT;
    struct add_context add = {shipped, 0, 0, {0}, {""}};
    pthread_mutex_lock(&lock);
    walk(text, size, store, &add, why, why_len);
    pthread_mutex_unlock(&lock);
    return add.failed ? FFTGEN_OUT_OF_MEMORY : FFTGEN_SUCCESS;
}

/* The whole file in memory (NUL-terminated); NULL with `why` if unreadable. */
static char *read_file(const char *path, size_t *size, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(why, why_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *data = NULL;
    long length = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)length + 1)) != NULL && fread(data, 1, (size_t)length, f) == (size_t)length) {
        data[length] = '\0';
        *size = (size_t)length;
    } else {
        snprintf(why, why_len, "%s: cannot be read", path);
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

fftgen_result fftgen_wisdom_add_file(const char *path, char *why, size_t why_len)
{
    size_t size = 0;
    char *text = read_file(path, &size, why, why_len);
    if (text == NULL) return FFTGEN_WISDOM_UNREADABLE;
    char reason[512];
    const fftgen_result result = fftgen_wisdom_add_text(text, size, 0, reason, sizeof reason);
    if (result != FFTGEN_SUCCESS) snprintf(why, why_len, "%s: %s", path, reason);
    free(text);
    return result;
}

int fftgen_wisdom_default_path(char *path, size_t len)
{
    const char *explicit_path = getenv("FFTGEN_WISDOM");
    if (explicit_path != NULL && *explicit_path != '\0') {
        if (strcmp(explicit_path, "0") == 0) return -1;
        return snprintf(path, len, "%s", explicit_path) < (int)len ? 0 : -1;
    }
    char dir[4096];
    if (fftgen_cache_dir(dir, sizeof dir) != 0) return -1;
    return snprintf(path, len, "%s/wisdom.txt", dir) < (int)len ? 0 : -1;
}

static void load_shipped_and_users(void)
{
    char why[512], path[4096];
    if (fftgen_wisdom_add_text(fftgen_shipped_wisdom_data, (size_t)fftgen_shipped_wisdom_size, 1, why,
                               sizeof why) != FFTGEN_SUCCESS)
        fprintf(stderr, "fftgen: the shipped table of kernel choices is unusable: %s\n", why);
    if (fftgen_wisdom_default_path(path, sizeof path) != 0) return;
    FILE *probe = fopen(path, "rb");
    if (probe == NULL) return; /* no wisdom yet: not an error */
    fclose(probe);
    /* damaged wisdom must not stop planning: it is skipped, and said once */
    if (fftgen_wisdom_add_file(path, why, sizeof why) != FFTGEN_SUCCESS)
        fprintf(stderr, "fftgen: skipping the wisdom file %s (run fftgen tune again, or delete it)\n", why);
}

void fftgen_wisdom_load_defaults(void)
{
    fftgen_load_once(&defaults_loading, &lock, &defaults_loaded, load_shipped_and_users);
}

/* Which entries serve `key`, first to last: 0, the user's section for this device, driver and fftgen
 * version; 1, the shipped section named for this device; 2, the architecture's first shipped
 * section; -1: the entry does not serve `key`. */
static int precedence(const struct stored_entry *stored_entry, const fftgen_device_key *key)
{
    if (!stored_entry->shipped) return same_key(&stored_entry->section, key) ? 0 : -1;
    if (stored_entry->section.arch != key->arch) return -1;
    if (strcmp(stored_entry->section.device, key->device) == 0) return 1;
    return stored_entry->first_of_arch ? 2 : -1;
}

/* Whether a line serving calls of at most `bound` points (0: every call) is nearer to a call than one of
 * `than`: the smaller bound, a line without one last. */
static int narrower(long long bound, long long than)
{
    return bound != 0 && (than == 0 || bound < than);
}

int fftgen_wisdom_find(const fftgen_device_key *key, fftgen_kernel_precision precision, int rank,
                       const long long *shape, long long points, fftgen_choice *choice)
{
    fftgen_wisdom_entry wanted = {0};
    wanted.precision = precision;
    wanted.rank = rank;
    for (int d = 0; d < rank && d < FFTGEN_MAX_RANK; ++d) wanted.shape[d] = shape[d];
    int best = -1, best_precedence = 0;
    long long best_bound = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < stored_count; ++i) { /* at equal precedence and bound, the later entry */
        const int p = precedence(&stored[i], key);
        const long long bound = stored[i].entry.max_points;
        if (p < 0 || !same_shape(&stored[i].entry, &wanted) || (bound != 0 && points > bound)) continue;
        if (best < 0 || p < best_precedence ||
            (p == best_precedence && (bound == best_bound || narrower(bound, best_bound)))) {
            best = i;
            best_precedence = p;
            best_bound = bound;
        }
    }
    if (best >= 0) *choice = stored[best].entry.choice;
    pthread_mutex_unlock(&lock);
    return best >= 0;
}

void fftgen_choice_apply(const fftgen_choice *choice, int rank, fftgen_kernel_request *request)
{
    if (request->precision == FFTGEN_KERNEL_FP16) {
        request->tensor_cores = choice->tensor_cores;
        request->twiddle_powers = choice->twiddle_powers;
        request->computed_twiddle_passes = choice->computed_twiddle_passes;
        request->column_pair_passes = choice->column_pair_passes;
    }
    if (request->precision == FFTGEN_KERNEL_FP32) request->row_register_passes = choice->row_register_passes;
    request->max_tile = choice->max_tile;
    request->cluster = choice->cluster;
    request->columns_first = rank == 2 && choice->columns_first;
    request->max_radix = choice->max_radix; /* 1D, or a 2D/3D shape's fused slice (the planner checks) */
    request->block_threads = rank == 1 ? choice->block_threads : 0;
    request->prefetch = choice->prefetch;
    request->radix32_passes = choice->radix32_passes;
    request->column_register_passes = rank > 1 ? choice->column_register_passes : 0;
    request->split_columns = rank > 1 && choice->split_columns;
    request->l2_prefetch_kb = choice->l2_prefetch_kb;
    request->l2_prefetch_passes = choice->l2_prefetch_passes;
    request->l2_fetch_256_passes = choice->l2_fetch_256_passes;
    request->tma_column_passes = choice->tma_column_passes;
    request->tile_pair_passes = choice->tile_pair_passes;
    request->four_step_columns = rank <= 2 ? choice->four_step_columns : 0;
}

void fftgen_choice_text(const fftgen_choice *choice, char *out, size_t len)
{
    char passes[32];
    fftgen_pass_mask_text(choice->tensor_cores, passes, sizeof passes);
    char tiles[32];
    fftgen_tile_caps_text(&choice->max_tile, tiles, sizeof tiles);
    char cluster[16] = "";
    if (choice->cluster != 0) snprintf(cluster, sizeof cluster, " cluster=%d", choice->cluster);
    char order[32] = "", split[24] = "", four_step[32] = "", radix[16] = "", block[32] = "", prefetch[24] = "",
         l2[32] = "", masks[256] = "";
    if (choice->columns_first) snprintf(order, sizeof order, " order=%s", fftgen_order_name(1));
    if (choice->split_columns) snprintf(split, sizeof split, " split-columns=1");
    if (choice->four_step_columns != 0)
        snprintf(four_step, sizeof four_step, " four-step=%d", choice->four_step_columns);
    if (choice->max_radix != 0) snprintf(radix, sizeof radix, " radix=%d", choice->max_radix);
    if (choice->block_threads != 0) snprintf(block, sizeof block, " block-threads=%d", choice->block_threads);
    if (choice->prefetch != 0) snprintf(prefetch, sizeof prefetch, " prefetch=%d", choice->prefetch);
    if (choice->l2_prefetch_kb != 0)
        snprintf(l2, sizeof l2, " l2-prefetch=%d", fftgen_l2_prefetch_written(choice->l2_prefetch_kb));
    for (int k = 0; k < PASS_WORD_COUNT; ++k) {
        const int mask = pass_word_value(choice, k);
        char list[32];
        fftgen_pass_mask_text(mask, list, sizeof list);
        const size_t at = strlen(masks);
        if (mask != 0) snprintf(masks + at, sizeof masks - at, " %s=%s", PASS_WORDS[k].key, list);
    }
    snprintf(out, len, "tensor-cores=%s max-tile=%s%s%s%s%s%s%s%s%s%s", passes, tiles, cluster, order, split,
             four_step, radix, block, prefetch, l2, masks);
}

static int append_entry(fftgen_text_buffer *b, const fftgen_wisdom_entry *entry)
{
    char shape[64], choice[256], line[MAX_LINE];
    fftgen_shape_text(entry->rank, entry->shape, shape, sizeof shape);
    fftgen_choice_text(&entry->choice, choice, sizeof choice);
    fftgen_c_locale scope; /* read back by parse_time */
    fftgen_c_locale_begin(&scope);
    char bound[40] = "";
    if (entry->max_points != 0) snprintf(bound, sizeof bound, " max-points=%lld", entry->max_points);
    const int n = snprintf(line, sizeof line, "%s %s %s%s ms=%.4f default-ms=%.4f\n",
                           fftgen_precision_name(entry->precision), shape, choice, bound, entry->ms,
                           entry->default_ms);
    fftgen_c_locale_end(&scope);
    return fftgen_text_append(b, line, (size_t)n);
}

fftgen_result fftgen_wisdom_write(const char *path, const fftgen_device_key *key, const fftgen_wisdom_entry *entries,
                                  int count, char *why, size_t why_len)
{
    fftgen_text_buffer out = {0};
    char line[MAX_LINE];
    int failed = 0;
    static const char comment[] = "# Kernel choices measured by `fftgen tune`: one section per device, driver"
                                  " and fftgen version.\n";
    const int n = snprintf(line, sizeof line, "fftgen-wisdom %d\n%s", FFTGEN_WISDOM_FORMAT, comment);
    failed |= fftgen_text_append(&out, line, (size_t)n);
    /* the other devices' sections, as they were (a device or pipe such as /dev/stdout holds none, and
     * reading one could wait forever) */
    size_t size = 0;
    char reason[512];
    char *old = NULL;
    struct stat existing;
    if (stat(path, &existing) == 0 && S_ISREG(existing.st_mode)) {
        old = read_file(path, &size, why, why_len);
        if (old == NULL) {
            free(out.data);
            return FFTGEN_WISDOM_UNREADABLE;
        }
        if (walk(old, size, NULL, NULL, reason, sizeof reason) != 0) {
            snprintf(why, why_len, "%s is damaged (%s): it was left as it is; move it away first", path, reason);
            free(old);
            free(out.data);
            return FFTGEN_WISDOM_CORRUPT;
        }
    }
    /* other devices' lines as they were; this device's entries for transforms not measured again,
     * which go into its new section */
    fftgen_text_buffer mine = {0};
    int own = 0; /* inside this device's section */
    for (size_t at = 0; old != NULL && at < size;) {
        const char *newline = memchr(old + at, '\n', size - at);
        const size_t length = newline ? (size_t)(newline - (old + at)) : size - at;
        fftgen_device_key section;
        fftgen_wisdom_entry entry;
        const int kind = parse_line(old + at, length, line, &section, &entry, reason, sizeof reason);
        if (kind == LINE_DEVICE) own = same_key(&section, key);
        int measured_again = 0;
        for (int i = 0; i < count && kind == LINE_ENTRY; ++i) measured_again |= same_transform(&entry, &entries[i]);
        const int ours = length == sizeof comment - 2 && memcmp(old + at, comment, length) == 0; /* written above */
        if (!own && kind != LINE_HEADER && !ours) {
            failed |= fftgen_text_append(&out, old + at, length);
            failed |= fftgen_text_append(&out, "\n", 1);
        } else if (own && kind == LINE_ENTRY && !measured_again) {
            failed |= fftgen_text_append(&mine, old + at, length);
            failed |= fftgen_text_append(&mine, "\n", 1);
        }
        at += length + (newline != NULL);
    }
    free(old);
    char device[sizeof key->device];
    snprintf(device, sizeof device, "%s", key->device);
    for (char *c = device; *c; ++c)
        if (*c == '"' || *c == '\n' || *c == '#') *c = '\'';
    const int m = snprintf(line, sizeof line, "device \"%s\" sm_%d driver %s fftgen %s\n", device, key->arch,
                           key->driver, key->version);
    failed |= fftgen_text_append(&out, line, (size_t)m);
    if (mine.length > 0) failed |= fftgen_text_append(&out, mine.data, mine.length);
    free(mine.data);
    for (int i = 0; i < count; ++i) failed |= append_entry(&out, &entries[i]);
    if (failed) {
        free(out.data);
        snprintf(why, why_len, "out of memory");
        return FFTGEN_OUT_OF_MEMORY;
    }
    const int written = fftgen_write_file(path, out.data, out.length, why, why_len);
    free(out.data);
    return written == 0 ? FFTGEN_SUCCESS : FFTGEN_WISDOM_UNREADABLE;
}

void fftgen_wisdom_reset_for_tests(void)
{
    pthread_mutex_lock(&lock);
    free(stored);
    stored = NULL;
    stored_count = stored_capacity = 0;
    defaults_loaded = 0;
    pthread_mutex_unlock(&lock);
}
