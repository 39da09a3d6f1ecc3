# test/bench/build.mk - the bench's Check suite links the bench's own
# metric, replay and engine-adapter objects (bench/build.mk builds them):
# testing the code the tables come from, not a copy of it.  Appending to
# TEST_OBJS is enough because the runner's link rule lists $(TEST_OBJS).
TEST_OBJS += $(BENCH_CORE_OBJS)
