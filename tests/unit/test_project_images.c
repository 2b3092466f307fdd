/* SPDX-License-Identifier: Apache-2.0 */
/* test_project_images.c: images the project makes (RULES.md "Images built by the
 * project", "Kustomize"): the facts parsers record (doc->project, model_ref.h) with their
 * positions and patterns, kustomization entries as references, and the engine's pass
 * that drops the findings they make moot (linter/cli/project.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "knowledge/kb.h"
#include "linter/cli/engine.h"
#include "tests/unit/test_launch_util.h"

extern const struct gl_input_type gl_input_makefile, gl_input_compose, gl_input_ciyaml,
    gl_input_kustomize, gl_input_markdown, gl_input_bake;

/* Project image k as "what text pattern" (what: B built, N renamed, T retagged). */
static const char *project_of(size_t k)
{
    static char buf[1024];
    assert_true(k < D.nproject);
    const struct gl_project_image *p = &D.project[k];
    snprintf(buf, sizeof buf, "%s%s%s %s %s", p->what & GL_PROJECT_BUILT ? "B" : "",
             p->what & GL_PROJECT_RENAMED ? "N" : "", p->what & GL_PROJECT_RETAGGED ? "T" : "",
             p->text, p->pattern);
    return buf;
}

/* The builds of a Dockerfile (GL_PROJECT_ARG_SET facts) are set aside into `builds`, so
 * that D.project holds the images alone; returns how many images. */
static struct gl_project_image builds[64];
static size_t nbuilds;

static size_t images(void)
{
    size_t n = 0;
    nbuilds = 0;
    for (size_t i = 0; i < D.nproject; i++) {
        if (!(D.project[i].what & GL_PROJECT_ARG_SET))
            D.project[n++] = D.project[i];
        else if (nbuilds < sizeof builds / sizeof builds[0])
            builds[nbuilds++] = D.project[i];
    }
    D.nproject = n;
    return n;
}

static void t_docker_build_forms(void **s)
{
    (void)s;
    sh("docker build -t myimg .\n"
       "docker buildx build --platform linux/amd64 --tag=ghcr.io/acme/web:$VERSION .\n"
       "sudo podman build -qt acme/tool:1 -f Containerfile .\n"
       "docker image build -tacme/a:2 .\n"
       "nerdctl build -t=acme/b .\n"
       "docker build --tag \"${REGISTRY:+$REGISTRY/}svc:${TAG:-dev}\" .\n"
       "docker build $ARGS .\n");
    assert_int_equal(images(), 6);
    assert_string_equal(project_of(0), "B myimg myimg");
    assert_loc(D.project[0].loc, 1, 17);
    assert_string_equal(D.project[0].tool, "docker build");
    assert_string_equal(project_of(1), "B ghcr.io/acme/web:$VERSION ghcr.io/acme/web:*");
    assert_loc(D.project[1].loc, 2, 50);
    assert_string_equal(D.project[1].tool, "docker buildx build");
    assert_string_equal(project_of(2), "B acme/tool:1 acme/tool:1");
    assert_loc(D.project[2].loc, 3, 23);
    assert_string_equal(project_of(3), "B acme/a:2 acme/a:2");
    assert_loc(D.project[3].loc, 4, 22);
    assert_string_equal(project_of(4), "B acme/b acme/b");
    assert_loc(D.project[4].loc, 5, 18);
    /* REGISTRY never assigned: `:+` gives nothing; TAG takes its default */
    assert_string_equal(project_of(5), "B svc:dev svc:dev");
    assert_int_equal(D.nlaunches, 0);
}

/* Build k as the paths its Dockerfile may have, then '|' and its ARGs, each followed by
 * '|' ("docker/Dockerfile a/docker/Dockerfile|BASE|"). */
static const char *build_of(size_t k)
{
    static char buf[1024];
    assert_true(k < nbuilds);
    const char *paths[GL_BUILD_ROOTS_MAX], *args;
    size_t n = gl_build_paths(&D.arena, builds[k].pattern, paths, &args);
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? " " : "", paths[i]);
    snprintf(buf + o, sizeof buf - o, "%s", args);
    for (char *p = buf; *p; p++)
        *p = *p == '\n' ? '|' : *p;
    return buf;
}

static void t_build_arg_facts(void **s)
{
    (void)s;
    sh("docker build --build-arg BASE=x --build-arg FROM_ENV -f docker/Dockerfile.gpu "
       "-t a:1 .\n"
       "podman build --platform linux/arm64 --build-arg=TAG=$V ./svc\n"
       "docker build $ARGS .\n"
       "docker build --build-arg BASE=y https://github.com/acme/x.git\n"
       "podman build --platform linux/arm64 --build-arg=TAG=$V ./svc\n");
    assert_int_equal(images(), 1);
    assert_int_equal(nbuilds, 2); /* (t.sh is in "."; no more roots above it are known; the
                                     second svc build repeats the first) */
    assert_string_equal(build_of(0), "docker/Dockerfile.gpu|BASE|");
    assert_string_equal(build_of(1), "svc/Dockerfile|TAG|");
}

static void t_compose_bake_build_facts(void **s)
{
    (void)s;
    parse_as(&gl_input_compose, "deploy/compose.yaml",
             "services:\n  a:\n    build:\n      context: ../app\n"
             "      args: {BASE: x, GONE: null}\n    image: a:1\n"
             "  b:\n    build: ${CTX}\n    image: b:1\n");
    assert_int_equal(images(), 2);
    assert_int_equal(nbuilds, 1);
    /* (compose's build.args are not followed, RULES.md second round: it sets no ARG) */
    assert_string_equal(build_of(0), "app/Dockerfile|");
    parse_as(&gl_input_bake, "ci/docker-bake.hcl",
             "target \"t\" {\n  context = \"images/x\"\n}\n"
             "target \"a\" {\n  inherits = [\"t\"]\n  args = { B = \"${V}\", N = null }\n}\n"
             "target \"odd\" {\n  context = \"${X}\"\n}\n");
    images();
    assert_int_equal(nbuilds, 1); /* (run from ci/ or from the directory above it) */
    assert_string_equal(build_of(0), "ci/images/x/Dockerfile images/x/Dockerfile|B|");
}

static void t_path_lexical(void **s)
{
    (void)s;
    static const char *const cases[][2] = {
        {"./x/../y//Dockerfile", "y/Dockerfile"}, {".", "."}, {"a/..", "."},
        {"../a/../../b", "../../b"}, {"/a/../../b", "/b"}, {"/", "/"}, {"a/./b/", "a/b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(gl_path_lexical(&D.arena, cases[i][0]), cases[i][1]);
}

static void t_tag_commit_buildah_kaniko(void **s)
{
    (void)s;
    sh("docker tag myimg registry.example.com/team/myimg:$(git rev-parse --short HEAD)\n"
       "podman tag src a/one a/two\n"
       "docker commit -m 'snapshot' box acme/snap:1\n"
       "buildah bud --layers -t acme/bud .\n"
       "buildah --root /r build --tag acme/bb:3 .\n"
       "buildah commit --format docker ctr acme/ctr\n"
       "/kaniko/executor --context . --destination=reg.io/k:$CI_COMMIT_SHA -d reg.io/k:v1\n");
    assert_int_equal(images(), 9);
    assert_string_equal(D.project[0].pattern, "registry.example.com/team/myimg:*");
    assert_loc(D.project[0].loc, 1, 18);
    assert_string_equal(D.project[0].tool, "docker tag");
    assert_string_equal(project_of(1), "B a/one a/one");
    assert_string_equal(project_of(2), "B a/two a/two");
    assert_string_equal(project_of(3), "B acme/snap:1 acme/snap:1");
    assert_string_equal(project_of(4), "B acme/bud acme/bud");
    assert_string_equal(project_of(5), "B acme/bb:3 acme/bb:3");
    assert_string_equal(project_of(6), "B acme/ctr acme/ctr");
    assert_string_equal(D.project[7].pattern, "reg.io/k:*");
    assert_string_equal(project_of(8), "B reg.io/k:v1 reg.io/k:v1");
    assert_string_equal(D.project[8].tool, "kaniko");
}

static void t_kustomize_edit(void **s)
{
    (void)s;
    sh("kustomize edit set image controller=${IMG} a=b/c:1 d:2 e=*:3 f=g $NAME=x\n");
    assert_int_equal(images(), 5);
    assert_string_equal(project_of(0), "NT controller controller");
    assert_loc(D.project[0].loc, 1, 26);
    assert_string_equal(project_of(1), "NT a a");
    assert_string_equal(project_of(2), "T d d");
    assert_string_equal(project_of(3), "T e e");
    assert_string_equal(project_of(4), "N f f");
}

static void t_makefile_recipe(void **s)
{
    (void)s;
    parse_as(&gl_input_makefile, "Makefile",
             "IMG ?= controller:latest\nCONTAINER_TOOL ?= docker\n"
             "docker-build:\n\t$(CONTAINER_TOOL) build -t ${IMG} .\n");
    assert_int_equal(images(), 1);
    assert_string_equal(project_of(0), "B controller:latest controller:latest");
    assert_loc(D.project[0].loc, 4, 29);
}

static void t_compose_build(void **s)
{
    (void)s;
    parse_as(&gl_input_compose, "compose.yaml",
             "services:\n  app:\n    build: .\n    image: ${REGISTRY:-localhost}/trainer:${TAG}\n"
             "  db:\n    image: postgres:16\n");
    assert_int_equal(images(), 1);
    assert_string_equal(project_of(0), "B localhost/trainer:${TAG} localhost/trainer:*");
    assert_loc(D.project[0].loc, 4, 12);
}

static void t_build_push_action(void **s)
{
    (void)s;
    parse_as(&gl_input_ciyaml, ".github/workflows/release.yml",
             "on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n"
             "      - uses: docker/build-push-action@v5\n        with:\n"
             "          tags: |\n"
             "            ghcr.io/${{ github.repository }}/op:latest\n"
             "            acme/op:${{ github.sha }}, acme/op:latest\n"
             "      - run: docker build -t ci-img .\n");
    assert_int_equal(images(), 4);
    assert_string_equal(project_of(0), "B ghcr.io/${{ github.repository }}/op:latest "
                                       "ghcr.io/*/op:latest");
    assert_loc(D.project[0].loc, 9, 13);
    assert_string_equal(project_of(1), "B acme/op:${{ github.sha }} acme/op:*");
    assert_string_equal(project_of(2), "B acme/op:latest acme/op:latest");
    assert_loc(D.project[2].loc, 10, 40);
    assert_string_equal(project_of(3), "B ci-img ci-img");
}

/* Tags made of `${{ env.X }}` (step, job, workflow env: the innermost) and
 * `${{ matrix.K }}` (the job's matrix list and include entries) stand for each literal
 * value (ci_expr.h); an exclude, a non-literal value or any other expression leaves the
 * part unresolved. After kubeflow/pipelines' .github/workflows/image-builds.yml. */
static void t_build_push_action_env_matrix(void **s)
{
    (void)s;
    parse_as(&gl_input_ciyaml, ".github/workflows/images.yml",
             "on: push\nenv:\n  REG: wf-reg:5000\n  TAG: latest\njobs:\n  b:\n"
             "    runs-on: x\n    env:\n      TAG: ci\n"
             "    strategy:\n      matrix:\n        img: [api, ui]\n"
             "        include:\n          - img: cache\n          - other: 1\n"
             "    steps:\n      - uses: docker/build-push-action@v6\n        with:\n"
             "          tags: ${{ env.REG }}/${{ matrix.img }}:${{ env.TAG }}, "
             "x/${{ matrix.img }}:${{ matrix.os }}\n"
             "  c:\n    runs-on: x\n    strategy:\n      matrix:\n        img: [a, b]\n"
             "        exclude:\n          - img: b\n"
             "    steps:\n      - uses: docker/build-push-action@v6\n        with:\n"
             "          tags: ${{ env.REG }}/${{ matrix.img }}:${{ env.NOPE }}\n");
    static const char *const want[] = {
        "B wf-reg:5000/api:ci wf-reg:5000/api:ci",
        "B wf-reg:5000/ui:ci wf-reg:5000/ui:ci",
        "B wf-reg:5000/cache:ci wf-reg:5000/cache:ci",
        "B x/api:${{ matrix.os }} x/api:*",
        "B x/ui:${{ matrix.os }} x/ui:*",
        "B x/cache:${{ matrix.os }} x/cache:*",
        "B wf-reg:5000/${{ matrix.img }}:${{ env.NOPE }} wf-reg:5000/*:*"};
    assert_int_equal(images(), sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_string_equal(project_of(i), want[i]);
}

/* docker/build-push-action steps as builds (ci_build_action.h): paths from the repository
 * root, two directories above a workflow; a composite action's root is not known. */
static void t_build_push_action_builds(void **s)
{
    (void)s;
    static const char *const with[] = {
        "{context: ./svc, build-args: \"A=1\\nB=${{ matrix.b }}\\n# C=1\\nD\\n\"}",
        "{file: '${{ github.workspace }}/docker/Dockerfile.gpu', build-args: [E=1, '\"F=2\"']}",
        "{context: '${{ matrix.ctx }}'}", "{context: '{{defaultContext}}:sub'}",
        "{build-args: '${{ matrix.k }}=1'}", "{context: 'https://github.com/acme/x.git'}",
        "{context: '{{defaultContext}}', file: docker/F}"};
    const char *text = "on: push\njobs:\n  b:\n    runs-on: x\n"
                       "    steps:\n      - uses: docker/build-push-action@v5\n";
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
        text = gl_arena_printf(&D.arena, "%s      - uses: docker/build-push-action@v5\n"
                                         "        with: %s\n", text, with[i]);
    parse_as(&gl_input_ciyaml, "repo/.github/workflows/w.yml", text);
    assert_int_equal(images(), 0);
    assert_int_equal(nbuilds, 4);
    assert_string_equal(build_of(0), "repo/Dockerfile|");
    assert_loc(builds[0].loc, 6, 15);
    assert_string_equal(builds[0].tool, "docker/build-push-action");
    assert_string_equal(build_of(1), "repo/svc/Dockerfile|A|B|");
    assert_string_equal(build_of(2), "repo/docker/Dockerfile.gpu|E|F|");
    assert_string_equal(build_of(3), "repo/docker/F|");
    doc_teardown(NULL);
    doc_setup(NULL);
    parse_as(&gl_input_ciyaml, "actions/img/action.yml",
             "runs:\n  using: composite\n  steps:\n"
             "    - uses: docker/build-push-action@v6\n      with: {context: .}\n");
    assert_int_equal(images(), 0);
    assert_int_equal(nbuilds, 1);
    assert_string_equal(build_of(0), "actions/img/Dockerfile actions/Dockerfile Dockerfile|");
}

static void t_markdown_block(void **s)
{
    (void)s;
    parse_as(&gl_input_markdown, "README.md",
             "Build:\n\n```bash\ndocker build -t <your-registry>/app .\n```\n");
    assert_int_equal(images(), 1);
    assert_string_equal(D.project[0].pattern, "*/app");
}

static void t_kustomization(void **s)
{
    (void)s;
    assert_true(gl_input_kustomize.by_name("a/kustomization.yaml", "kustomization.yaml"));
    assert_true(gl_input_kustomize.by_name("kustomization.yml", "kustomization.yml"));
    assert_true(gl_input_kustomize.by_name("Kustomization", "Kustomization"));
    assert_false(gl_input_kustomize.by_name("kustomizeconfig.yaml", "kustomizeconfig.yaml"));
    parse_as(&gl_input_kustomize, "kustomization.yaml",
             "resources: [../base]\n"
             "images:\n"
             "  - name: controller\n    newName: ghcr.io/acme/controller\n    newTag: latest\n"
             "  - name: nvidia/cuda\n    newTag: 12.2.2-runtime-ubuntu22.04\n"
             "  - name: only-renamed\n    newName: mirror.io/only\n"
             "  - name: pinned\n    digest: sha256:"
             "dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c\n"
             "  - name: templated\n    newTag: ${TAG}\n"
             "  - name: ${NAME}\n    newTag: v1\n"
             "  - name: untouched\n");
    assert_false(D.error.set);
    assert_int_equal(images(), 5);
    assert_string_equal(project_of(0), "NT controller controller");
    assert_loc(D.project[0].loc, 3, 11);
    assert_string_equal(D.project[0].tool, "kustomization");
    assert_string_equal(project_of(1), "T nvidia/cuda nvidia/cuda");
    assert_string_equal(project_of(2), "N only-renamed only-renamed");
    assert_string_equal(project_of(3), "T pinned pinned");
    assert_string_equal(project_of(4), "T templated templated");
    assert_int_equal(D.nrefs, 5);
    assert_string_equal(D.refs[0].text, "ghcr.io/acme/controller:latest");
    assert_int_equal(D.refs[0].role, GL_REF_KUSTOMIZE);
    assert_true(D.refs[0].ok);
    assert_loc(D.refs[0].loc, 5, 13);
    assert_loc(D.refs[0].parsed.tag_loc, 5, 13);
    assert_string_equal(D.refs[1].text, "nvidia/cuda:12.2.2-runtime-ubuntu22.04");
    assert_loc(D.refs[1].loc, 7, 13);
    /* newName alone keeps each base's tag: unknown here */
    assert_string_equal(D.refs[2].text, "mirror.io/only");
    assert_true(D.refs[2].unresolved);
    assert_loc(D.refs[2].loc, 9, 14);
    assert_true(D.refs[3].ok);
    assert_non_null(D.refs[3].parsed.digest);
    assert_loc(D.refs[3].loc, 11, 13);
    assert_true(D.refs[4].unresolved);
}

static void t_kustomization_bad_yaml(void **s)
{
    (void)s;
    parse_as(&gl_input_kustomize, "kustomization.yaml", "images:\n  - name: [a\n");
    assert_true(D.error.set);
    assert_int_equal(images(), 0);
}

/* ---- the engine's pass over a whole run ---- */

static struct gl_config cfg;

static int run_setup(void **state)
{
    (void)state;
    gl_config_init(&cfg);
    assert_int_equal(gl_config_finish(&cfg), 0);
    cfg.kb = gl_kb_builtin();
    return 0;
}

static int run_teardown(void **state)
{
    (void)state;
    gl_config_free(&cfg);
    return 0;
}

/* Lint the inputs (name, text pairs, NULL-terminated) as one run: the rule ids and lines
 * left, "GL101@run.sh:2 ...". */
static const char *lint_run(const char *const *inputs)
{
    static char out[2048];
    struct gl_run run;
    gl_run_init(&run, &cfg);
    for (size_t i = 0; inputs[i]; i += 2)
        gl_lint_buffer(&run, inputs[i], inputs[i + 1], strlen(inputs[i + 1]), GL_IN_UNKNOWN,
                       true);
    gl_run_finish(&run);
    gl_findings_sort(&run.findings);
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; i < run.findings.n && n < sizeof out; i++) {
        const struct gl_finding *f = &run.findings.items[i];
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s@%s:%u", i ? " " : "",
                              f->rule->id, f->file, (unsigned)f->loc.line);
    }
    gl_run_free(&run);
    return out;
}

static void t_run_sibling_build(void **s)
{
    (void)s;
    const char *run_sh = "#!/bin/sh\ndocker run acme/myimg\ndocker run python:latest\n";
    const char *alone[] = {"run.sh", run_sh, NULL};
    assert_string_equal(lint_run(alone), "GL101@run.sh:2 GL101@run.sh:3");
    /* the build comes before or after the run: the run is read whole first */
    const char *after[] = {"run.sh", run_sh, "build.sh", "docker build -t acme/myimg .\n", NULL};
    assert_string_equal(lint_run(after), "GL101@run.sh:3");
    const char *other_tag[] = {"run.sh", run_sh, "build.sh", "docker build -t acme/myimg:1 .\n",
                               NULL};
    assert_string_equal(lint_run(other_tag), "GL101@run.sh:2 GL101@run.sh:3");
    /* a script that cannot be parsed runs nothing and builds nothing */
    const char *broken[] = {"run.sh", run_sh, "build.sh",
                            "docker build -t acme/myimg .\necho \"\n", NULL};
    assert_string_equal(lint_run(broken), "GL900@build.sh:2 GL101@run.sh:2 GL101@run.sh:3");
    /* a name no registry serves (one component, never an official image) is the machine's
       own build whether or not the run sees it; an official name is the registry's */
    const char *local[] = {"run.sh", "docker run myimg\ndocker run centos\n", NULL};
    assert_string_equal(lint_run(local), "GL101@run.sh:2");
}

static void t_run_kustomize(void **s)
{
    (void)s;
    const char *deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n"
                         "  template:\n    spec:\n      containers:\n"
                         "        - name: c\n          image: controller:latest\n";
    /* `controller` is served by no registry: a placeholder a kustomization replaces */
    const char *base[] = {"deployment.yaml", deploy, NULL};
    assert_string_equal(lint_run(base), "");
    const char *retag[] = {"deployment.yaml", deploy, "kustomization.yaml",
                           "images:\n- name: controller\n  newName: acme/c\n  newTag: latest\n",
                           NULL};
    assert_string_equal(lint_run(retag), "GL101@kustomization.yaml:4");
    const char *pinned[] = {"deployment.yaml", deploy, "kustomization.yaml",
                            "images:\n- name: controller\n  newTag: v1.2.0\n", NULL};
    assert_string_equal(lint_run(pinned), "");
    /* a new name alone keeps the base's tag: `latest` of a registry image is what runs */
    const char *renamed[] = {"deployment.yaml", deploy, "kustomization.yaml",
                             "images:\n- name: controller\n  newName: acme/c\n", NULL};
    assert_string_equal(lint_run(renamed), "GL101@deployment.yaml:9");
    /* kustomize rewrites manifests only: a script's `docker run acme/controller` is judged */
    const char *script[] = {"run.sh", "docker run acme/controller:latest\n", "kustomization.yaml",
                            "images:\n- name: acme/controller\n  newTag: v1.2.0\n", NULL};
    assert_string_equal(lint_run(script), "GL101@run.sh:1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(t_docker_build_forms, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_tag_commit_buildah_kaniko, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_build_arg_facts, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_compose_bake_build_facts, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_path_lexical, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_kustomize_edit, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_makefile_recipe, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_compose_build, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_build_push_action, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_build_push_action_env_matrix, doc_setup,
                                        doc_teardown),
        cmocka_unit_test_setup_teardown(t_build_push_action_builds, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_block, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_kustomization, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_kustomization_bad_yaml, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_run_sibling_build, run_setup, run_teardown),
        cmocka_unit_test_setup_teardown(t_run_kustomize, run_setup, run_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
