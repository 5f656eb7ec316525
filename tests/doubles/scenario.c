/* Test double support (see scenario.h): parses the scenario file once. */
#include "scenario.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ENTRIES 1024

static char* keys[MAX_ENTRIES];
static char* values[MAX_ENTRIES];
static int entry_count = -1;

static void load(void) {
  if (entry_count >= 0) return;
  entry_count = 0;
  const char* path = getenv("GPUDOCTOR_FAKE_SCENARIO");
  if (path == NULL) return;
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  char line[1024];
  while (entry_count < MAX_ENTRIES && fgets(line, sizeof line, f)) {
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (line[0] == '#' || line[0] == 0) continue;
    char* eq = strchr(line, '=');
    if (eq == NULL) continue;
    *eq = 0;
    keys[entry_count] = strdup(line);
    values[entry_count] = strdup(eq + 1);
    ++entry_count;
  }
  fclose(f);
}

const char* scenario_get(const char* key) {
  load();
  for (int i = entry_count - 1; i >= 0; --i) {
    if (strcmp(keys[i], key) == 0) return values[i];
  }
  return NULL;
}

const char* scenario_dev(const char* prefix, unsigned index, const char* field) {
  char key[128];
  snprintf(key, sizeof key, "%s%u.%s", prefix, index, field);
  return scenario_get(key);
}

int scenario_error(const char* value) { return value && value[0] == '!' ? atoi(value + 1) : 0; }

void scenario_act(const char* value) {
  if (value == NULL) return;
  if (strcmp(value, "hang") == 0) {
    for (;;) pause();
  }
  if (strcmp(value, "crash") == 0) {
    /* The default action, even under a sanitizer that installs its own SIGSEGV handler. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  }
}
