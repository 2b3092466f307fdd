/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: bytes as a `.gpulint.yaml` config file (linter/config/config_file.h), then
 * the configuration finished (patterns compiled) as main() does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/config.h"
#include "linter/config/config_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    struct gl_config cfg;
    gl_config_init(&cfg);
    char err[1024];
    if (gl_config_file_parse(&cfg, "/nonexistent/fuzz/.gpulint.yaml", text, size, err,
                             sizeof err) == 0)
        gl_config_finish(&cfg);
    gl_config_free(&cfg);
    free(text);
    return 0;
}
