// A C++ program linked against the UCRT (api-ms-win-crt-* and
// vcruntime140), its C++ runtime (libstdc++, gcc's exceptions over SEH)
// linked in: exceptions through frames with destructors, standard
// containers and strings, iostreams, and static constructors/destructors
// that run around main (tests.list compares the output).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "test.h"

static std::string trail;

struct Guard {
	char name;
	explicit Guard(char n) : name(n) { trail += '+', trail += n; }
	~Guard() { trail += '-', trail += name; }
};

struct Global {
	Global() { std::puts("static constructor"); }
	~Global() { std::puts("static destructor"); }
} global;

[[noreturn]] static void thrower(int depth)
{
	Guard g('a' + depth);
	if (!depth)
		throw std::runtime_error("from depth 0");
	thrower(depth - 1);
}

static void test_exceptions()
{
	try {
		thrower(2);
		ok(0, "no exception\n");
	} catch (const std::exception &e) {
		ok(std::string(e.what()) == "from depth 0", "what() [%s]\n", e.what());
	}
	// Rule: the destructors of every frame ran, innermost first
	ok(trail == "+c+b+a-a-b-c", "trail [%s]\n", trail.c_str());
	try {
		std::vector<int> v(3);
		(void)v.at(5);
		ok(0, "at() did not throw\n");
	} catch (const std::out_of_range &) {
		ok(1, "\n");
	}
	try {
		throw 42;
	} catch (int v) {
		ok(v == 42, "caught %d\n", v);
	}
}

static void test_library()
{
	std::map<std::string, int> m{ { "one", 1 }, { "two", 2 } };
	std::ostringstream out;
	auto p = std::make_unique<std::vector<std::string>>();

	for (auto &kv : m)
		out << kv.first << '=' << kv.second << ';';
	ok(out.str() == "one=1;two=2;", "[%s]\n", out.str().c_str());
	for (int i = 0; i < 100; i++)
		p->push_back(std::to_string(i * 1.5));
	ok(p->size() == 100 && (*p)[3] == "4.500000", "to_string [%s]\n", (*p)[3].c_str());
	std::cout << "iostream output " << 7 << std::endl;
}

int main()
{
	test_exceptions();
	test_library();
	return test_summary();
}
