/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: bytes as one input of type GPULINT_FUZZ_TYPE ("dockerfile", "shell",
 * "compose", ...), through the parser and every rule, as the engine runs them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/config.h"
#include "linter/cli/engine.h"
#include "linter/core/inputs.h"

static struct gl_config cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gl_config_init(&cfg);
    cfg.driver.set = true; /* exercise the driver checks too */
    cfg.driver.text = cfg.driver.version = "535.104.05";
    gl_config_finish(&cfg);
    if (!gl_input_type_named(GPULINT_FUZZ_TYPE))
        abort(); /* the target names a type gpulint does not have */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    struct gl_run run;
    gl_run_init(&run, &cfg);
    gl_lint_buffer(&run, "fuzz", text, size, gl_input_type_named(GPULINT_FUZZ_TYPE)->kind, true);
    gl_run_free(&run);
    free(text);
    return 0;
}
