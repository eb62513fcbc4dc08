#include "render.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_locale.h"
#include "templates.h"
#include "text_buffer.h"

void fftgen_default_name(const fftgen_transform_plan *plan, char *name, size_t len)
{
    char shape[64];
    const fftgen_kernel_precision precision = plan->pass[0].precision;
    fftgen_shape_text(plan->rank, plan->shape, shape, sizeof shape);
    /* split plans always use tensor cores; the flag marks fp16 kernels that do */
    const int tc = plan->pass[0].tensor_cores && !fftgen_precision_is_split(precision);
    snprintf(name, len, "fftgen_%s_%s%s", shape, tc ? "tc_" : "", fftgen_precision_name(precision));
    for (char *c = name; *c; ++c)
        if (*c == '-') *c = '_'; /* split-papers: an identifier */
}

/* The layout differs from dense data, transform after transform. */
static int is_strided(const fftgen_transform_plan *plan, const fftgen_user_layout *layout)
{
    if (layout->stride != 1 || layout->dist != plan->n) return 1;
    for (int d = 1; d < plan->rank; ++d)
        if (layout->embed[d] != plan->shape[d]) return 1;
    return 0;
}

/* "--inembed 8x20": the embeds of dimensions 1 and up, where one differs from the shape. */
static int embed_option(const fftgen_transform_plan *plan, const fftgen_user_layout *layout, const char *flag,
                        char *out, size_t len)
{
    int differs = 0;
    for (int d = 1; d < plan->rank; ++d) differs |= layout->embed[d] != plan->shape[d];
    if (!differs) return 0;
    long long embed[FFTGEN_MAX_RANK];
    for (int d = 1; d < plan->rank; ++d) embed[d - 1] = layout->embed[d];
    char text[64];
    fftgen_shape_text(plan->rank - 1, embed, text, sizeof text);
    return snprintf(out, len, " %s %s", flag, text);
}

static const char *direction_name(int directions)
{
    switch (directions) {
    case FFTGEN_RENDER_FORWARD: return "forward";
    case FFTGEN_RENDER_INVERSE: return "inverse";
    default: return "both";
    }
}

/* " --tensor-cores" when every pass that can has them (fp16), " --tensor-cores=2" for some; split
 * plans use them without asking. */
static void tensor_core_option(const fftgen_transform_plan *plan, char *out, size_t len)
{
    out[0] = '\0';
    if (fftgen_precision_is_split(plan->pass[0].precision)) return;
    int on = 0, fit = 0, mask = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        const fftgen_kernel_plan *pass = &plan->pass[i];
        fit += pass->radix_max == 16 && pass->slice_rows == 0;
        on += pass->tensor_cores != 0;
        mask |= (pass->tensor_cores != 0) << i;
    }
    if (on == 0) return;
    char list[32];
    fftgen_pass_mask_text(mask, list, sizeof list);
    if (on == fit) snprintf(out, len, " --tensor-cores");
    else snprintf(out, len, " --tensor-cores=%s", list);
}

/* " --FLAG=1,3": the passes in `mask`, numbered from 1; nothing for none. */
static void pass_mask_option(const char *flag, int mask, char *out, size_t len)
{
    char list[32];
    fftgen_pass_mask_text(mask, list, sizeof list);
    if (mask != 0) snprintf(out, len, " --%s=%s", flag, list);
}

/* " --twiddle-powers=1,3" for the tiled passes that derive their twiddles from the first (the
 * others do so without asking), " --radix32-passes=1,2" for those that hold 32 points a thread and
 * " --column-registers=2,3" for the passes whose short columns load straight into registers because
 * the request named them, " --computed-twiddles=1" for those that compute their stage twiddles and
 * " --column-pairs=1,2" for those that load their columns in lane pairs, " --row-registers=2" for those
 * that load fp32 rows in runs straight into registers, " --l2-prefetch-passes=1" for
 * those that took the L2 prefetch, " --l2-fetch-256=2" for those that ask L2 for 256 bytes a point
 * because the request named them, " --tma-columns=1" for those whose column tiles come through the TMA and
 * " --tile-pairs=2" for those that run two tiles a block and store them together. */
static void tiled_pass_options(const fftgen_transform_plan *plan, char *out, size_t len)
{
    int powers = 0, radix32 = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        const fftgen_kernel_plan *pass = &plan->pass[i];
        powers |= (pass->tiled && pass->twiddle_powers) << i;
        radix32 |= (pass->tiled && pass->radix_max == 32) << i;
    }
    const struct {
        const char *flag;
        int passes;
    } options[] = {{"twiddle-powers", powers},
                   {"radix32-passes", radix32},
                   {"column-registers", plan->column_register_passes},
                   {"computed-twiddles", plan->computed_twiddle_passes},
                   {"column-pairs", plan->column_pair_passes},
                   {"row-registers", plan->row_register_passes},
                   {"l2-prefetch-passes", plan->l2_prefetch_passes},
                   {"l2-fetch-256", plan->l2_fetch_256_passes},
                   {"tma-columns", plan->tma_column_passes},
                   {"tile-pairs", plan->tile_pair_passes}};
    for (size_t k = 0; k < sizeof options / sizeof options[0]; ++k) {
        const size_t at = strlen(out);
        pass_mask_option(options[k].flag, options[k].passes, out + at, len - at);
    }
}

void fftgen_plan_command(const fftgen_transform_plan *plan, int directions, const char *name, char *out,
                         size_t len)
{
    const fftgen_kernel_plan *first = &plan->pass[0];
    char radix[48] = "", shape[64], choices[384] = "";
    if (plan->pass_count == 1 && plan->rank == 1 && first->cluster > 1)
        snprintf(radix, sizeof radix, " --cluster %d", first->cluster); /* a cluster's chain is the default's */
    else if (plan->pass_count == 1 && plan->rank == 1 && plan->block_threads != 0)
        snprintf(radix, sizeof radix, " --radix %d --block-threads %d", first->radix_max, plan->block_threads);
    else if (plan->pass_count == 1 && plan->rank == 1)
        snprintf(radix, sizeof radix, " --radix %d", first->radix_max);
    else if (first->slice_rows > 0 && first->cluster < 2 && first->radix_max != 16 &&
             first->radix_max < first->slice_rows && first->radix_max < first->n / first->slice_rows)
        snprintf(radix, sizeof radix, " --radix %d", first->radix_max); /* a slice's, other than the default */
    else if (plan->cluster != 0)
        snprintf(radix, sizeof radix, " --cluster %d", plan->cluster); /* passes, or their columns' choice */
    if (plan->rows_radix != 0) { /* the rows' of a 2D/3D shape, as asked */
        const size_t at = strlen(radix);
        snprintf(radix + at, sizeof radix - at, " --radix %d", plan->rows_radix);
    }
    tensor_core_option(plan, choices, sizeof choices);
    if (fftgen_tile_caps_any(&plan->max_tile)) {
        char tiles[32];
        fftgen_tile_caps_text(&plan->max_tile, tiles, sizeof tiles);
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --max-tile %s", tiles);
    }
    tiled_pass_options(plan, choices + strlen(choices), sizeof choices - strlen(choices));
    if (plan->columns_first) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --order %s", fftgen_order_name(1));
    }
    if (plan->split_columns) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --split-columns");
    }
    if (plan->four_step_columns != 0) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --four-step %d", plan->four_step_columns);
    }
    if (plan->prefetch > 1) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --prefetch %d", plan->prefetch);
    }
    if (plan->l2_prefetch_kb != 0) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --l2-prefetch %d", fftgen_l2_prefetch_written(plan->l2_prefetch_kb));
    }
    if (plan->intermediate != FFTGEN_INTERMEDIATE_DEFAULT && plan->pass_count > 1 &&
        first->precision == FFTGEN_KERNEL_FP16) {
        const size_t at = strlen(choices);
        snprintf(choices + at, sizeof choices - at, " --intermediate %s", fftgen_intermediate_name(plan->intermediate));
    }
    fftgen_shape_text(plan->rank, plan->shape, shape, sizeof shape);
    int used = snprintf(out, len, "fftgen --n %s%s%s --precision %s --direction %s", shape, radix, choices,
                        fftgen_precision_name(first->precision), direction_name(directions));
    const int strided = is_strided(plan, &plan->in) || is_strided(plan, &plan->out);
    if (strided && used > 0 && (size_t)used < len)
        used += snprintf(out + used, len - (size_t)used, " --istride %lld --idist %lld --ostride %lld --odist %lld",
                         plan->in.stride, plan->in.dist, plan->out.stride, plan->out.dist);
    if (strided && used > 0 && (size_t)used < len)
        used += embed_option(plan, &plan->in, "--inembed", out + used, len - (size_t)used);
    if (strided && used > 0 && (size_t)used < len)
        used += embed_option(plan, &plan->out, "--onembed", out + used, len - (size_t)used);
    if (name != NULL && used > 0 && (size_t)used < len) snprintf(out + used, len - (size_t)used, " --name %s", name);
}

static void set_int(lua_State *L, const char *key, long long value)
{
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

static void set_string(lua_State *L, const char *key, const char *value)
{
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void push_layout(lua_State *L, const char *key, const fftgen_layout *layout)
{
    lua_newtable(L);
    set_int(L, "elem_stride", layout->elem_stride);
    set_int(L, "fft_stride", layout->fft_stride);
    set_int(L, "group_size", layout->group_size);
    set_int(L, "group_count", layout->group_count);
    set_int(L, "group_stride", layout->group_stride);
    set_int(L, "batch_stride", layout->batch_stride);
    set_int(L, "run_points", layout->run_points);
    set_int(L, "run_stride", layout->run_stride);
    lua_setfield(L, -2, key);
}

static void push_list(lua_State *L, const char *key, const int *values, int count)
{
    lua_newtable(L);
    for (int i = 0; i < count; ++i) {
        lua_pushinteger(L, values[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, key);
}

static void push_pass(lua_State *L, const fftgen_kernel_plan *pass)
{
    lua_newtable(L);
    set_int(L, "n", pass->n);
    set_int(L, "radix_max", pass->radix_max);
    set_int(L, "threads_per_fft", pass->threads_per_fft);
    set_int(L, "ffts_per_block", pass->ffts_per_block);
    set_int(L, "threads", pass->threads);
    set_int(L, "shared_bytes", pass->shared_bytes);
    set_int(L, "smem_points", pass->smem_points);
    set_int(L, "pad_every", fftgen_smem_pad_every(pass));
    lua_pushboolean(L, pass->staged_io);
    lua_setfield(L, -2, "staged_io");
    lua_pushboolean(L, pass->tiled);
    lua_setfield(L, -2, "tiled");
    lua_pushboolean(L, pass->tensor_cores);
    lua_setfield(L, -2, "tensor_cores");
    lua_pushboolean(L, pass->twiddle_powers);
    lua_setfield(L, -2, "twiddle_powers");
    lua_pushboolean(L, pass->computed_twiddles);
    lua_setfield(L, -2, "computed_twiddles");
    set_int(L, "prefetch", pass->prefetch);
    set_int(L, "l2_prefetch_bytes", pass->l2_prefetch_bytes);
    set_int(L, "point_bytes", pass->precision == FFTGEN_KERNEL_FP16 ? 4 : 8); /* __half2, else float2 */
    set_int(L, "staged_row_points", pass->staged_row_points);
    static const char *const buffers[] = {"input", "output", "work"};
    set_string(L, "source", buffers[pass->source]);
    set_string(L, "target", buffers[pass->target]);
    set_int(L, "dimension", pass->dimension);
    set_int(L, "cluster", pass->cluster > 1 ? pass->cluster : 1);
    set_int(L, "twiddle_n", pass->twiddle_n);
    lua_pushboolean(L, pass->twiddle_by_group);
    lua_setfield(L, -2, "twiddle_by_group");
    lua_pushboolean(L, pass->twiddle_by_column);
    lua_setfield(L, -2, "twiddle_by_column");
    lua_pushboolean(L, pass->column_registers);
    lua_setfield(L, -2, "column_registers");
    lua_pushboolean(L, fftgen_loads_to_registers(pass));
    lua_setfield(L, -2, "loads_to_registers");
    lua_pushboolean(L, fftgen_reads_runs_across_lanes(pass));
    lua_setfield(L, -2, "runs_across_lanes");
    lua_pushboolean(L, fftgen_stores_from_registers(pass));
    lua_setfield(L, -2, "stores_from_registers");
    lua_pushboolean(L, fftgen_shuffle_tail(pass));
    lua_setfield(L, -2, "shuffle_tail");
    lua_pushboolean(L, fftgen_shuffle_tail_computes_twiddles(pass));
    lua_setfield(L, -2, "tail_twiddles_computed");
    lua_pushboolean(L, fftgen_computes_pass_twiddles(pass));
    lua_setfield(L, -2, "computed_pass_twiddles");
    lua_pushboolean(L, pass->shared_exponent_source);
    lua_setfield(L, -2, "shared_exponent_source");
    lua_pushboolean(L, pass->shared_exponent_target);
    lua_setfield(L, -2, "shared_exponent_target");
    if (pass->mixed_source_rows > 0) {
        lua_pushinteger(L, pass->mixed_source_rows);
        lua_setfield(L, -2, "mixed_source_rows");
    }
    if (pass->mixed_target_rows > 0) {
        lua_pushinteger(L, pass->mixed_target_rows);
        lua_setfield(L, -2, "mixed_target_rows");
    }
    if (pass->tiled) {
        push_layout(L, "in_layout", &pass->in);
        push_layout(L, "out_layout", &pass->out);
    }
    push_list(L, "radices", pass->radices, pass->stage_count);
    set_int(L, "slice_rows", pass->slice_rows);
    if (pass->slice_rows > 0) push_list(L, "col_radices", pass->col_radices, pass->col_stage_count);
    set_int(L, "volume_depth", pass->volume_depth);
    if (pass->volume_depth > 0) push_list(L, "depth_radices", pass->depth_radices, pass->depth_stage_count);
    set_int(L, "depth_rounds", pass->depth_rounds);
    set_int(L, "column_rounds", pass->column_rounds);
    set_int(L, "interleaved_slices", pass->interleaved_slices > 1 ? pass->interleaved_slices : 1);
    set_int(L, "row_rounds", pass->row_rounds);
    lua_pushboolean(L, pass->merged_stage);
    lua_setfield(L, -2, "merged_stage");
    lua_pushboolean(L, pass->split_copies);
    lua_setfield(L, -2, "split_copies");
    lua_pushboolean(L, pass->column_pairs);
    lua_setfield(L, -2, "column_pairs");
    lua_pushboolean(L, pass->l2_fetch_256);
    lua_setfield(L, -2, "l2_fetch_256");
    lua_pushboolean(L, pass->tma_columns);
    lua_setfield(L, -2, "tma_columns");
    set_int(L, "tma_staging_offset", pass->tma_staging_offset);
    lua_pushboolean(L, pass->tma_in_exchanges);
    lua_setfield(L, -2, "tma_in_exchanges");
    lua_pushboolean(L, pass->tile_pairs);
    lua_setfield(L, -2, "tile_pairs");
    set_int(L, "pair_offset", pass->pair_offset);
    set_int(L, "tma_group_stride", pass->tma_columns ? fftgen_tma_group_stride(pass) : 0);
    lua_pushboolean(L, pass->tma_columns && fftgen_tma_rows_first(pass));
    lua_setfield(L, -2, "tma_rows_first");
    const int tma_runs = fftgen_tma_runs(pass);
    lua_pushboolean(L, tma_runs);
    lua_setfield(L, -2, "tma_runs");
    if (tma_runs) { /* the tensor map's geometry, as the runtime encodes it */
        long long dims[3], strides[2];
        int box[3];
        fftgen_tma_run_map(pass, dims, strides, box);
        set_int(L, "tma_row_points", dims[0]);
        set_int(L, "tma_group_rows", dims[1]);
        set_int(L, "tma_box_rows", box[1]);
        set_int(L, "tma_box_runs", box[2]);
    }
}

/* The embeds as strings, index 1 (dimension 0, never used) holding the shape's size. */
static void push_embed(lua_State *L, const char *key, const fftgen_transform_plan *plan,
                       const fftgen_user_layout *layout)
{
    lua_newtable(L);
    for (int d = 0; d < plan->rank; ++d) {
        char text[32];
        snprintf(text, sizeof text, "%lld", d == 0 ? plan->shape[0] : layout->embed[d]);
        lua_pushstring(L, text);
        lua_rawseti(L, -2, d + 1);
    }
    lua_setfield(L, -2, key);
}

static void push_plan(lua_State *L, const fftgen_render_request *request)
{
    const fftgen_transform_plan *plan = request->plan;
    char name[128], command[512];
    if (request->name != NULL)
        snprintf(name, sizeof name, "%s", request->name);
    else
        fftgen_default_name(plan, name, sizeof name);
    fftgen_plan_command(plan, request->directions, request->name, command, sizeof command);

    char shape[64];
    fftgen_shape_text(plan->rank, plan->shape, shape, sizeof shape);
    lua_newtable(L);
    set_int(L, "n", plan->n);
    set_int(L, "rank", plan->rank);
    lua_pushboolean(L, plan->columns_first);
    lua_setfield(L, -2, "columns_first");
    set_string(L, "shape_text", shape);
    lua_newtable(L);
    for (int d = 0; d < plan->rank; ++d) {
        lua_pushinteger(L, plan->shape[d]);
        lua_rawseti(L, -2, d + 1);
    }
    lua_setfield(L, -2, "shape");
    set_string(L, "precision", fftgen_precision_name(plan->pass[0].precision));
    /* the split variant the tensor-core stages use: "corrected", "papers", or none */
    if (plan->pass[0].precision == FFTGEN_KERNEL_SPLIT) set_string(L, "split", "corrected");
    if (plan->pass[0].precision == FFTGEN_KERNEL_SPLIT_PAPERS) set_string(L, "split", "papers");
    set_string(L, "target", request->target == FFTGEN_TARGET_SIM ? "sim" : "cuda");
    set_string(L, "name", name);
    set_string(L, "version", FFTGEN_VERSION);
    set_string(L, "command", command);
    lua_pushboolean(L, is_strided(plan, &plan->in) || is_strided(plan, &plan->out));
    lua_setfield(L, -2, "strided");
    push_embed(L, "in_embed", plan, &plan->in);
    push_embed(L, "out_embed", plan, &plan->out);
    set_int(L, "istride", plan->in.stride);
    set_int(L, "idist", plan->in.dist);
    set_int(L, "ostride", plan->out.stride);
    set_int(L, "odist", plan->out.dist);
    lua_newtable(L);
    for (int i = 0; i < plan->pass_count; ++i) {
        push_pass(L, &plan->pass[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "passes");
    lua_newtable(L);
    int count = 0;
    if (request->directions & FFTGEN_RENDER_FORWARD) {
        lua_pushstring(L, "forward");
        lua_rawseti(L, -2, ++count);
    }
    if (request->directions & FFTGEN_RENDER_INVERSE) {
        lua_pushstring(L, "inverse");
        lua_rawseti(L, -2, ++count);
    }
    lua_setfield(L, -2, "directions");
}

/* The identity's text; `failed` once an allocation did. */
struct identity_text {
    fftgen_text_buffer text;
    int failed;
};

static void add_text(struct identity_text *t, const char *data, size_t length)
{
    t->failed |= fftgen_text_append(&t->text, data, length) != 0;
}

static void add_string(struct identity_text *t, const char *text)
{
    add_text(t, text, strlen(text));
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends the value on top of the stack to `t`, and pops it: strings with their length, so that no
 * string can pass for another's end, and tables as their keys (names or indices) in sorted order,
 * so that the text does not depend on how Lua walks them. The plan table holds strings, integers,
 * booleans and tables. */
static void add_value(lua_State *L, struct identity_text *t, int depth)
{
    if (depth > 8) luaL_error(L, "plan table nested too deeply");
    const int value = lua_gettop(L);
    char number[32];
    switch (lua_type(L, value)) {
    case LUA_TSTRING: {
        size_t length;
        const char *text = lua_tolstring(L, value, &length);
        snprintf(number, sizeof number, "s%zu:", length);
        add_string(t, number);
        add_text(t, text, length);
        break;
    }
    case LUA_TNUMBER:
        if (!lua_isinteger(L, value)) luaL_error(L, "plan table holds a fractional number");
        snprintf(number, sizeof number, "i%lld", (long long)lua_tointeger(L, value));
        add_string(t, number);
        break;
    case LUA_TBOOLEAN: add_string(t, lua_toboolean(L, value) ? "T" : "F"); break;
    case LUA_TTABLE: {
        /* the keys as text, "sNAME" or "iN" (never alike), kept alive in a table of their own */
        int count = 0;
        for (lua_pushnil(L); lua_next(L, value) != 0; lua_pop(L, 1)) ++count;
        const char **keys = lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * sizeof *keys, 0);
        lua_createtable(L, count, 0);
        const int key_texts = lua_gettop(L);
        int at = 0;
        for (lua_pushnil(L); lua_next(L, value) != 0; lua_pop(L, 1)) {
            if (lua_type(L, -2) == LUA_TSTRING) lua_pushfstring(L, "s%s", lua_tostring(L, -2));
            else if (lua_isinteger(L, -2)) lua_pushfstring(L, "i%I", (LUAI_UACINT)lua_tointeger(L, -2));
            else luaL_error(L, "plan table has a %s key", luaL_typename(L, -2));
            keys[at] = lua_tostring(L, -1);
            lua_rawseti(L, key_texts, ++at);
        }
        qsort(keys, (size_t)count, sizeof *keys, compare_keys);
        add_string(t, "{");
        for (int k = 0; k < count; ++k) {
            add_string(t, keys[k]);
            add_string(t, "=");
            if (keys[k][0] == 's') lua_pushstring(L, keys[k] + 1);
            else lua_pushinteger(L, (lua_Integer)strtoll(keys[k] + 1, NULL, 10));
            lua_gettable(L, value);
            add_value(L, t, depth + 1);
            add_string(t, ";");
        }
        add_string(t, "}");
        break;
    }
    default: luaL_error(L, "plan table holds a %s", luaL_typename(L, value));
    }
    lua_settop(L, value - 1);
}

/* Runs inside lua_pcall, as render_protected does. */
static int identity_protected(lua_State *L)
{
    const fftgen_render_request *request = lua_touserdata(L, 1);
    struct identity_text *t = lua_touserdata(L, 2);
    push_plan(L, request);
    add_value(L, t, 0);
    return 0;
}

char *fftgen_render_identity(const fftgen_render_request *request, char *why, size_t why_len)
{
    if (request->templates_dir != NULL) {
        snprintf(why, why_len, "templates read from a folder have no identity");
        return NULL;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        snprintf(why, why_len, "out of memory starting Lua");
        return NULL;
    }
    struct identity_text t = {{NULL, 0, 0}, 0};
    /* fftgen's version names the embedded templates' release; the runtime adds their text's hash */
    add_string(&t, "fftgen " FFTGEN_VERSION " render identity 1\n");
    lua_pushcfunction(L, identity_protected);
    lua_pushlightuserdata(L, (void *)request);
    lua_pushlightuserdata(L, &t);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        snprintf(why, why_len, "plan identity: %s", message ? message : "(no message)");
        t.failed = 1;
    } else if (t.failed) {
        snprintf(why, why_len, "out of memory");
    }
    lua_close(L);
    if (t.failed) {
        free(t.text.data);
        return NULL;
    }
    return t.text.data;
}

/* Runs inside lua_pcall so that a memory error while building the plan table is caught too. */
static int render_protected(lua_State *L)
{
    const fftgen_render_request *request = lua_touserdata(L, 1);
    luaL_openlibs(L);
    fftgen_templates_install(L, request->templates_dir);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "kernel");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "render");
    push_plan(L, request);
    lua_call(L, 1, 1);
    if (!lua_isstring(L, -1)) return luaL_error(L, "templates/kernel.lua: render() did not return a string");
    return 1;
}

char *fftgen_render(const fftgen_render_request *request, char *why, size_t why_len)
{
    if (request->directions < FFTGEN_RENDER_FORWARD || request->directions > FFTGEN_RENDER_BOTH) {
        snprintf(why, why_len, "no direction requested");
        return NULL;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        snprintf(why, why_len, "out of memory starting Lua");
        return NULL;
    }
    lua_pushcfunction(L, render_protected);
    lua_pushlightuserdata(L, (void *)request);
    char *text = NULL;
    /* the templates format their float constants with string.format, and Lua reads its own numbers:
     * both in the "C" locale, so that the text is the same in every program (and so is its hash) */
    fftgen_c_locale scope;
    fftgen_c_locale_begin(&scope);
    const int status = lua_pcall(L, 1, 1, 0);
    fftgen_c_locale_end(&scope);
    if (status != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        snprintf(why, why_len, "template error: %s", message ? message : "(no message)");
        /* one line: Lua's "error loading module" messages continue on a tab-indented line */
        for (char *c = why; *c; ++c)
            if (*c == '\n' || *c == '\t') *c = ' ';
    } else {
        size_t length;
        const char *s = lua_tolstring(L, -1, &length);
        text = malloc(length + 1);
        if (text == NULL)
            snprintf(why, why_len, "out of memory");
        else
            memcpy(text, s, length + 1);
    }
    lua_close(L);
    return text;
}
