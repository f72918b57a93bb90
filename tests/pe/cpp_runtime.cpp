// The C++ runtime of x86_64-w64-mingw32-g++-posix, linked -static: iostream
// (output compared with cpp_runtime.expected), std::string, std::vector,
// std::map, and std::thread on winpthreads with std::mutex,
// std::condition_variable, std::atomic and thread_local objects.
// No exception is thrown here: unwinding is another test's business.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <numeric>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test.h"

static void test_iostream_and_containers()
{
	// Rule: std::cout formats like the C++ standard says, whatever the CRT.
	std::cout << "int " << 42 << " hex " << std::hex << 255 << std::dec << " neg " << -7
		  << '\n';
	std::cout << "double " << std::fixed << std::setprecision(3) << 3.14159 << '\n';
	std::cout << "width [" << std::setw(6) << "ab" << "] [" << std::left << std::setw(6)
		  << "cd" << "]" << std::right << '\n';
	std::cout << "bool " << std::boolalpha << true << ' ' << false << '\n';
	std::cout << "int64 " << (long long)-9000000000000000000LL << ' '
		  << 18000000000000000000ULL << '\n';

	std::string s = "hello";
	s += ", world";
	s.insert(0, ">> ");
	ok(s == ">> hello, world", "string [%s]\n", s.c_str());
	ok(s.find("world") == 10, "find %zu\n", s.find("world"));
	ok(s.substr(3, 5) == "hello", "substr [%s]\n", s.substr(3, 5).c_str());
	std::string big(1000, 'x'); // past the small-string buffer: heap
	ok(big.size() == 1000 && big[999] == 'x', "big string %zu\n", big.size());
	std::cout << "string " << s << " (" << s.size() << ")\n";

	std::vector<int> v = {5, 3, 9, 1, 7};
	std::sort(v.begin(), v.end());
	ok(std::accumulate(v.begin(), v.end(), 0) == 25, "sum %d\n",
	   std::accumulate(v.begin(), v.end(), 0));
	for (int i = 0; i < 10000; i++)
		v.push_back(i);
	ok(v.size() == 10005 && v[10004] == 9999, "vector size %zu\n", v.size());
	std::cout << "vector";
	for (size_t i = 0; i < 5; i++)
		std::cout << ' ' << v[i];
	std::cout << '\n';

	std::map<std::string, int> m = {{"pear", 3}, {"apple", 1}, {"fig", 2}};
	m["banana"] = 4;
	std::cout << "map";
	for (const auto &kv : m)
		std::cout << ' ' << kv.first << '=' << kv.second;
	std::cout << '\n';
	ok(m.size() == 4 && m.begin()->first == "apple", "map size %zu\n", m.size());

	std::ostringstream os;
	os << "os " << 1.5 << ' ' << 'c';
	ok(os.str() == "os 1.5 c", "ostringstream [%s]\n", os.str().c_str());
}

// Rule: a thread_local object is constructed in each thread that uses it,
// with its initialiser, and destroyed when that thread exits.
static std::atomic<int> tl_constructed{0}, tl_destroyed{0};
struct tl_object {
	int value;
	tl_object() : value(100) { tl_constructed++; }
	~tl_object() { tl_destroyed++; }
};
static thread_local tl_object tl;
static thread_local int tl_plain = 5;

static void test_threads()
{
	const int nthreads = 4, per_thread = 10000;
	std::atomic<int> counter{0};
	std::mutex mtx;
	long long locked_sum = 0;
	std::vector<std::thread> threads;
	std::set<std::thread::id> ids;
	std::mutex ids_mtx;
	int constructed_before = tl_constructed;

	// Rule: atomics and a mutex make concurrent updates exact.
	for (int t = 0; t < nthreads; t++)
		threads.emplace_back([&, t] {
			{
				std::lock_guard<std::mutex> g(ids_mtx);
				ids.insert(std::this_thread::get_id());
			}
			ok(tl.value == 100 && tl_plain == 5, "thread %d: thread_local %d %d\n", t,
			   tl.value, tl_plain);
			tl.value = t;
			tl_plain = 50 + t;
			for (int i = 0; i < per_thread; i++) {
				counter.fetch_add(1, std::memory_order_relaxed);
				std::lock_guard<std::mutex> g(mtx);
				locked_sum += i;
			}
			std::this_thread::yield();
			ok(tl.value == t && tl_plain == 50 + t, "thread %d: thread_local became %d %d\n",
			   t, tl.value, tl_plain);
		});
	for (auto &th : threads)
		th.join();
	ok(counter == nthreads * per_thread, "atomic counter %d\n", counter.load());
	ok(locked_sum == (long long)nthreads * per_thread * (per_thread - 1) / 2,
	   "mutex sum %lld\n", locked_sum);
	ok(ids.size() == (size_t)nthreads, "%zu distinct thread ids\n", ids.size());
	ok(ids.count(std::this_thread::get_id()) == 0, "a thread had main's id\n");
	ok(tl_constructed - constructed_before == nthreads, "thread_local constructed %d times\n",
	   tl_constructed - constructed_before);
	ok(tl_destroyed == nthreads, "thread_local destroyed %d times\n", tl_destroyed.load());

	// Rule: a condition_variable hands work from a producer to consumers;
	// every item is consumed exactly once.
	std::queue<int> q;
	std::mutex qm;
	std::condition_variable cv;
	bool done = false;
	std::atomic<long long> consumed_sum{0};
	std::atomic<int> consumed{0};
	std::vector<std::thread> consumers;
	for (int c = 0; c < 3; c++)
		consumers.emplace_back([&] {
			for (;;) {
				std::unique_lock<std::mutex> lk(qm);
				cv.wait(lk, [&] { return !q.empty() || done; });
				if (q.empty())
					return;
				int item = q.front();
				q.pop();
				lk.unlock();
				consumed_sum += item;
				consumed++;
			}
		});
	for (int i = 1; i <= 1000; i++) {
		{
			std::lock_guard<std::mutex> g(qm);
			q.push(i);
		}
		cv.notify_one();
	}
	{
		std::lock_guard<std::mutex> g(qm);
		done = true;
	}
	cv.notify_all();
	for (auto &th : consumers)
		th.join();
	ok(consumed == 1000 && consumed_sum == 500500, "consumed %d items, sum %lld\n",
	   consumed.load(), consumed_sum.load());
	std::cout << "threads: counter " << counter << " consumed " << consumed << '\n';

	// Rule: the main thread has its own thread_local copy, untouched.
	ok(tl.value == 100 && tl_plain == 5, "main: thread_local %d %d\n", tl.value, tl_plain);
}

int main()
{
	test_iostream_and_containers();
	test_threads();
	std::cout.flush();
	return test_summary();
}
