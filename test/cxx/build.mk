# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/cxx/build.mk - the public headers from C++: test/cxx/headers.cc built
# once per API (modern, legacy, compat) with the C++ compiler that matches
# $(CC), warnings as errors, in every variant (so also under ASan, TSan and
# valgrind), linked against the C library and run by "make check".

CXX_APIS := modern legacy compat
CXX_TESTS := $(CXX_APIS:%=$(B)/test/cxx/cxx-headers-%)
PROGRAMS += $(CXX_TESTS)
CHECK_PROGRAMS += $(CXX_TESTS)

# -std=c++17 for std::aligned_alloc; the headers ask for C++11 at least.
# Not -Wshadow: GCC's C++ front end reads gen_pool_stats(), a function named
# like its struct as C allows, as hiding the struct's constructor.
CXX_WARN := -Wall -Wextra -Werror -Wpointer-arith -Wcast-align -Wformat=2 -Wvla
ALL_CXXFLAGS = -std=c++17 $(CXX_WARN) -g -pthread $(VARIANT_CFLAGS_$(VARIANT)) $(CXXFLAGS)

$(B)/test/cxx/headers-%.o: test/cxx/headers.cc | deps-cxx
	@mkdir -p $(@D)
	$(CXX) $(ALL_CPPFLAGS) -DCXX_API_$(shell echo $* | tr a-z A-Z) $(ALL_CXXFLAGS) \
		$(DEPFLAGS) -c -o $@ $<

$(B)/test/cxx/cxx-headers-%: $(B)/test/cxx/headers-%.o $(LIB_A)
	$(CXX) $(ALL_CXXFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

-include $(CXX_APIS:%=$(B)/test/cxx/headers-%.d)
