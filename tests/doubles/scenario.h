/* Test-double support: the answers of the fake NVML and libcuda, scripted by a scenario file.
 *
 * GPUDOCTOR_FAKE_SCENARIO names a file of KEY=VALUE lines ('#' comments). A key that is absent
 * makes the call return "not supported"; a value "!N" makes it return error code N; "hang" and
 * "crash" for an init key make the double hang forever or die of SIGSEGV. See tests/driver/. */
#ifndef GPUDOCTOR_TEST_SCENARIO_H
#define GPUDOCTOR_TEST_SCENARIO_H

/* The value of KEY ("nvml.init", "gpu0.name"), or NULL when the scenario does not set it. */
const char* scenario_get(const char* key);
/* The value of "PREFIX.INDEX.FIELD" style keys: scenario_dev("gpu", 0, "name") reads "gpu0.name". */
const char* scenario_dev(const char* prefix, unsigned index, const char* field);
/* "!N" -> N; otherwise 0. */
int scenario_error(const char* value);
/* Hangs or crashes when VALUE says so. */
void scenario_act(const char* value);

#endif
