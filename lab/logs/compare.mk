# lab/logs/compare.mk: comparing boots by their serial logs, the reference logs,
# the demo and the HTML report. Included by the top-level Makefile after
# lab/lab.mk (LAB_DIR, LAB_HOST, LAB_CC, LAB_CFLAGS, LAB_SAN_CFLAGS,
# LAB_SAN_ENV, LAB_LIB, LAB_LOGS come from there). doc/compare.md has the details.
#
#   make compare A=pivot:stock B=pivot:full [RUN=results/ID] [BOOT=1]   the table, then the kernel lines
#                                    (no RUN: the newest run with each side, lab/logs/compare)
#   make compare A=path/a.log B=path/b.log                      two log files
#   make demo [RUN=results/ID]       classic switch_root on stock next to pivot on full
#   make check-reference [RUN=results/ID]   fresh logs against results/reference/
#   make refresh-reference RUN=results/ID   rewrite results/reference/ from a passing run
#   make report [RUN=results/ID]     results/ID/report.html and report.png
#   make host-tests-compare          unit tests (ASan/UBSan) and the scripts' tests
#
# RUN defaults to results/latest (compare: the newest run with each side); A and B
# may also be SCENARIO:KERNEL. lab/mk TARGET ... exits with the tool's status (0/1/2).

NORMLOG_LIB := $(LAB_LOGS)/normlog.c $(LAB_LOGS)/normlog.h $(LAB_LIB)
COMPARE_LIB := $(LAB_LOGS)/logcompare.c $(LAB_LOGS)/logcompare.h $(NORMLOG_LIB)
COMPARE_SRC := $(LAB_LOGS)/compare.c $(COMPARE_LIB)
NORMALIZE_SRC := $(LAB_LOGS)/normalize.c $(NORMLOG_LIB)
RUN ?=
A ?=
B ?=

$(LAB_HOST)/compare: $(COMPARE_SRC)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^)

$(LAB_HOST)/normalize: $(NORMALIZE_SRC)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^)

# the same programs with the sanitizers, for the scripts' tests
$(LAB_HOST)/compare-san: $(COMPARE_SRC)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -o $@ $(filter %.c,$^)

$(LAB_HOST)/normalize-san: $(NORMALIZE_SRC)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -o $@ $(filter %.c,$^)

$(LAB_HOST)/test_normlog: $(LAB_DIR)/tests/test_normlog.c $(LAB_DIR)/tests/check.h $(COMPARE_SRC) $(LAB_LOGS)/normalize.c
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -DCOMPARE_NO_MAIN -DNORMALIZE_NO_MAIN -I$(LAB_LOGS) -o $@ $(filter %.c,$^)

COMPARE_TOOLS := $(LAB_HOST)/compare $(LAB_HOST)/normalize

.PHONY: compare-tools host-tests-compare compare demo check-reference refresh-reference report report-test
compare-tools: $(COMPARE_TOOLS)
lab-tools: $(COMPARE_TOOLS)

HOST_TESTS_EXTRA += host-tests-compare
host-tests-compare: $(LAB_HOST)/test_normlog $(LAB_HOST)/compare-san $(LAB_HOST)/normalize-san
	$(LAB_SAN_ENV) $(LAB_HOST)/test_normlog
	$(LAB_SAN_ENV) COMPARE=$(LAB_HOST)/compare-san NORMALIZE=$(LAB_HOST)/normalize-san \
		$(LAB_DIR)/tests/test_compare.sh

# lab/logs/compare finds the logs (without RUN: the newest run with each side; BOOT=1
# boots a side no run has). $(if ...) so that "make compare" with no A or B gets
# compare's own message (exit 2). $(lab_status): the status for lab/mk.
BOOT ?=
compare: $(LAB_HOST)/compare
	@COMPARE=$(LAB_HOST)/compare $(LAB_LOGS)/compare $(if $(RUN),--run "$(RUN)") \
		$(if $(filter 1 yes,$(BOOT)),--boot) $(if $(A),"$(A)") $(if $(B),"$(B)"); $(lab_status)

demo: $(COMPARE_TOOLS)
	@COMPARE=$(LAB_HOST)/compare $(LAB_DIR)/report/demo $(if $(RUN),--run "$(RUN)"); $(lab_status)

check-reference: $(COMPARE_TOOLS)
	@COMPARE=$(LAB_HOST)/compare NORMALIZE=$(LAB_HOST)/normalize \
		$(LAB_LOGS)/check-reference $(or $(RUN),results/latest); $(lab_status)

refresh-reference: $(COMPARE_TOOLS)
	@COMPARE=$(LAB_HOST)/compare NORMALIZE=$(LAB_HOST)/normalize \
		$(LAB_LOGS)/check-reference --refresh $(or $(RUN),results/latest); $(lab_status)

report: $(COMPARE_TOOLS)
	@COMPARE=$(LAB_HOST)/compare $(LAB_DIR)/report/report --png $(or $(RUN),results/latest); $(lab_status)

# the report rendered in headless Chromium: the matrix must be on the page
report-test: $(COMPARE_TOOLS)
	@COMPARE=$(LAB_HOST)/compare $(LAB_DIR)/tests/test_report.sh $(RUN)
