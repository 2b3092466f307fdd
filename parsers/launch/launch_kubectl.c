/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_kubectl.c: `kubectl run NAME --image=IMG ...` command lines into launches (see
 * launch_shell.h): one pod of one container (kind GL_LAUNCH_K8S, tool "kubectl").
 *
 * The option table is kubectl 1.32's `kubectl run --help` and `kubectl options`, plus
 * the flags older clients had (`--limits`, `--requests`, `--serviceaccount`, ... until
 * 1.21). Options with an optional value (`--dry-run`, `--cascade`) take one only after
 * '='. NAME is the first operand; the operands after it (or after `--`) are the
 * container's command or args.
 *  - --limits/--requests `cpu=1,memory=2Gi,nvidia.com/gpu=1`: GPU keys as in a pod's
 *    resources (GL_GPU_K8S_RESOURCE, nvidia.com/mig-* GL_GPU_K8S_MIG), cpu and memory
 *    into the pod facts (gl_pod_facts).
 *  - --overrides JSON (json-c): `nvidia.com/gpu` / MIG limits and requests of its
 *    spec.containers[] are GPU requests located at the key's text in the JSON; what else
 *    it sets is not read: opts_opaque, and the pod facts are opaque.
 *  - --env K=V, --rm.
 */
#include <json-c/json.h>
#include <string.h>

#include "parsers/launch/launch_internal.h"
#include "parsers/manifest/k8s.h"

static const struct gl_cli_flag kubectl_run_flags[] = {
    /* kubectl run --help (1.32) */
    {"allow-missing-template-keys", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"annotations", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"attach", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"cascade", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"command", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"dry-run", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"env", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"expose", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"field-manager", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"filename", 'f', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"force", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"grace-period", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"image", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"image-pull-policy", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"kustomize", 'k', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"labels", 'l', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"leave-stdin-open", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"output", 'o', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"override-type", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"overrides", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pod-running-timeout", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"port", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"privileged", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"quiet", 'q', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"recursive", 'R', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"restart", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"rm", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"save-config", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"show-managed-fields", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"stdin", 'i', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"template", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"timeout", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"tty", 't', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"wait", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    /* kubectl options */
    {"as", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"as-group", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"as-uid", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cache-dir", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"certificate-authority", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"client-certificate", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"client-key", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cluster", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"context", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"disable-compression", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"insecure-skip-tls-verify", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"kubeconfig", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"log-flush-frequency", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"match-server-version", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"namespace", 'n', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"password", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"profile", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"profile-output", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"request-timeout", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"server", 's', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"tls-server-name", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"token", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"user", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"username", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"v", 'v', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"vmodule", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"warnings-as-errors", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    /* older clients (removed in 1.21 and before) */
    {"generator", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"hostport", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"limits", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"record", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"replicas", 'r', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"requests", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"schedule", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"service-generator", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"service-overrides", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"serviceaccount", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* Is resource name k (NUL-terminated) whole GPUs or a MIG slice (*mig)? */
static bool gpu_key(const char *k, bool *mig)
{
    enum gl_k8s_res r = gl_k8s_resource_kind(k);
    *mig = r == GL_K8S_RES_MIG;
    return r == GL_K8S_RES_GPU || *mig;
}

/* One `name=quantity` of --limits/--requests, bytes [from, to) of v. */
static void resource(struct launch_build *b, const struct lv *v, size_t from, size_t to,
                     bool limits)
{
    struct gl_arena *a = &b->doc->arena;
    const char *eq = memchr(v->text + from, '=', to - from);
    if (!eq)
        return;
    size_t klen = (size_t)(eq - v->text) - from, vs = from + klen + 1;
    struct lv key = lv_sub(a, v, from, klen), val = lv_sub(a, v, vs, to - vs);
    struct gl_pod_facts *pf = &b->l->pod;
    struct gl_quantity *q = NULL;
    if (lv_is(&key, "cpu"))
        q = limits ? &pf->cpu_limit : &pf->cpu_request;
    else if (lv_is(&key, "memory"))
        q = limits ? &pf->memory_limit : &pf->memory_request;
    if (q) {
        *q = (struct gl_quantity){val.text, lv_loc(&val, 0), val.opaque};
        return;
    }
    bool mig;
    if (!gpu_key(key.text, &mig))
        return;
    struct gl_gpu_request *g = NULL;
    for (size_t i = 0; i < b->l->ngpus; i++)
        if (!strcmp(b->l->gpus[i].value, key.text))
            g = &b->l->gpus[i];
    if (!g) {
        g = launch_add_gpu(b, mig ? GL_GPU_K8S_MIG : GL_GPU_K8S_RESOURCE, &key);
        g->mig = mig;
        b->l->mig |= mig;
    }
    g->count_opaque |= val.opaque;
    if (limits) {
        g->limit = val.text;
        g->limit_loc = lv_loc(&val, 0);
    } else {
        g->request = val.text;
        g->request_loc = lv_loc(&val, 0);
    }
    g->count = g->limit ? g->limit : g->request;
}

static void resource_list(struct launch_build *b, const struct lv *v, bool limits)
{
    for (size_t i = 0, start = 0; i <= v->len && !lv_over(b->doc, v, i); i++)
        if (i == v->len || v->text[i] == ',') {
            resource(b, v, start, i, limits);
            start = i + 1;
        }
}

/* The GPU keys of one resources list of the --overrides JSON, located at their text. */
static void json_list(struct launch_build *b, const struct lv *v, struct json_object *list,
                      bool limits)
{
    if (!json_object_is_type(list, json_type_object))
        return;
    json_object_object_foreach(list, key, val)
    {
        bool mig;
        char quoted[128];
        size_t kn = strlen(key);
        if (!gpu_key(key, &mig) || kn + 3 > sizeof quoted)
            continue;
        quoted[0] = '"';
        memcpy(quoted + 1, key, kn);
        quoted[kn + 1] = '"';
        const char *hit = memmem(v->text, v->len, quoted, kn + 2);
        struct gl_arena *a = &b->doc->arena;
        struct lv at = hit ? lv_sub(a, v, (size_t)(hit - v->text) + 1, kn) : *v;
        const char *count = json_object_is_type(val, json_type_string) ||
                                    json_object_is_type(val, json_type_int) ||
                                    json_object_is_type(val, json_type_double)
                                ? gl_arena_strdup(a, json_object_get_string(val))
                                : NULL;
        struct gl_gpu_request *g =
            launch_add_gpu(b, mig ? GL_GPU_K8S_MIG : GL_GPU_K8S_RESOURCE, &at);
        g->value = gl_arena_strdup(a, key);
        g->mig = mig;
        b->l->mig |= mig;
        g->count_opaque = !count;
        if (limits) {
            g->limit = count;
            g->limit_loc = g->loc;
        } else {
            g->request = count;
            g->request_loc = g->loc;
        }
        g->count = count;
    }
}

static void overrides(struct launch_build *b, const struct lv *v)
{
    b->l->opts_opaque = true; /* it may set anything: mounts, shm, more containers */
    b->l->pod.opaque = true;
    if (v->opaque)
        return;
    struct json_tokener *tok = json_tokener_new_ex(32);
    if (!tok)
        return;
    struct json_object *root = json_tokener_parse_ex(tok, v->text, (int)v->len);
    json_tokener_free(tok);
    struct json_object *spec, *ctrs;
    if (root && json_object_object_get_ex(root, "spec", &spec) &&
        json_object_object_get_ex(spec, "containers", &ctrs) &&
        json_object_is_type(ctrs, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(ctrs); i++) {
            struct json_object *res, *x;
            if (!json_object_object_get_ex(json_object_array_get_idx(ctrs, i), "resources",
                                           &res))
                continue;
            if (json_object_object_get_ex(res, "limits", &x))
                json_list(b, v, x, true);
            if (json_object_object_get_ex(res, "requests", &x))
                json_list(b, v, x, false);
        }
    }
    json_object_put(root);
}

static void apply(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                  const struct lv *val)
{
    (void)flag;
    if (!f)
        return;
    if (!strcmp(f->name, "rm")) {
        b->l->remove = !val || value_true(val->text);
        return;
    }
    if (!val)
        return;
    if (!strcmp(f->name, "image")) {
        launch_set_image(b, val);
    } else if (!strcmp(f->name, "env")) {
        launch_add_env(b, val);
    } else if (!strcmp(f->name, "limits") || !strcmp(f->name, "requests")) {
        if (val->opaque)
            b->l->pod.opaque = true;
        else
            resource_list(b, val, f->name[0] == 'l');
        if (f->name[0] == 'l')
            b->l->pod.resources_loc = lv_loc(flag, 0);
    } else if (!strcmp(f->name, "overrides")) {
        overrides(b, val);
    }
}

/* The word after kubectl's global options from word `first`: its subcommand (or n). */
static size_t subcommand(const struct sh_cmd *cmd, size_t first)
{
    size_t n = cmd->nwords, sub = first;
    while (sub < n && !cmd->words[sub].opaque && cmd->words[sub].text[0] == '-') {
        const char *t = cmd->words[sub].text;
        const struct gl_cli_flag *f =
            t[1] == '-' ? gl_cli_flag_long(kubectl_run_flags, t + 2, strcspn(t + 2, "="))
                        : gl_cli_flag_short(kubectl_run_flags, t[1]);
        bool value_next = f && f->arity == GL_FLAG_VALUE && !strchr(t, '=') &&
                          (t[1] == '-' || !t[2]);
        sub += value_next ? 2 : 1;
    }
    return sub;
}

bool launch_kubectl_applies_stdin(const struct sh_cmd *cmd, size_t tool_wi)
{
    size_t n = cmd->nwords, i = tool_wi;
    if (i >= n || cmd->words[i].opaque)
        return false;
    const char *tool = gl_base_name(cmd->words[i].text);
    if ((gl_streq(tool, "microk8s") || gl_streq(tool, "k3s")) && i + 1 < n &&
        gl_streq(cmd->words[i + 1].text, "kubectl"))
        tool = cmd->words[++i].text;
    if (!gl_streq(tool, "kubectl") && !gl_streq(tool, "oc"))
        return false;
    size_t sub = subcommand(cmd, i + 1);
    if (sub >= n || cmd->words[sub].opaque ||
        (!gl_streq(cmd->words[sub].text, "apply") && !gl_streq(cmd->words[sub].text, "create") &&
         !gl_streq(cmd->words[sub].text, "replace")))
        return false;
    for (size_t k = sub + 1; k < n; k++) {
        const struct gl_word *w = &cmd->words[k];
        if (w->opaque)
            continue;
        const char *v = NULL;
        if (gl_streq(w->text, "-f") || gl_streq(w->text, "--filename"))
            v = k + 1 < n && !cmd->words[k + 1].opaque ? cmd->words[k + 1].text : NULL;
        else if (!strncmp(w->text, "--filename=", 11))
            v = w->text + 11;
        else if (!strncmp(w->text, "-f", 2))
            v = w->text + 2 + (w->text[2] == '=');
        if (v && (gl_streq(v, "-") || gl_streq(v, "/dev/stdin")))
            return true;
    }
    return false;
}

void launch_kubectl(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                    size_t first)
{
    size_t n = cmd->nwords;
    size_t sub = subcommand(cmd, first); /* (after the global options) */
    if (sub >= n || cmd->words[sub].opaque || strcmp(cmd->words[sub].text, "run"))
        return;
    struct launch_build b;
    launch_begin(&b, scan, GL_LAUNCH_K8S, "kubectl", cmd->words[tool_wi].loc);
    b.l->pod.pod = (unsigned)b.index + 1;
    b.l->pod.resources_loc = b.l->loc;
    bool ambiguous;
    size_t name = launch_walk_opts(&b, cmd, sub + 1, kubectl_run_flags, apply, &ambiguous);
    if (name < n && !ambiguous) {
        b.l->name = cmd->words[name].text;
        size_t args = launch_walk_opts(&b, cmd, name + 1, kubectl_run_flags, apply, &ambiguous);
        launch_set_argv(&b, cmd, args);
    }
    if (ambiguous)
        b.l->argv_opaque = true;
}
