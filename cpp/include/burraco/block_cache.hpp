// burraco — the blocks of one size last freed on a thread, kept for the next allocation
// (BlockCache, CachedAllocator).
#pragma once

#include <cstddef>
#include <memory>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define BURRACO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BURRACO_ASAN 1
#endif
#endif
#ifdef BURRACO_ASAN
#include <sanitizer/asan_interface.h>
#define BURRACO_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define BURRACO_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define BURRACO_POISON(p, n) ((void)(p), (void)(n))
#define BURRACO_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace burraco {

// Where a BlockCache keeps its blocks: a cache for each thread, or one for the process, for
// callers that never allocate or release two blocks of the size at once (Python's objects, made
// and dropped under the GIL), which then also save the lookup of the thread's storage.
enum class CacheScope { Thread, Process };

// Positions are about 1.9 KB, beyond the sizes glibc's malloc keeps in its per-thread cache
// (1 KB): each allocation of one takes malloc's general path (bins, chunk splitting and
// merging), some 500 instructions for an allocation and its release. A history keeps a copy of
// the position every 8 moves and a Python search copies whole games; both make and drop such
// blocks all the time. A BlockCache keeps up to `Keep` freed blocks of `Size` bytes and hands
// them out again; the rest goes to the global allocator. With CacheScope::Thread a block may be
// released on another thread than the one that allocated it (it joins that thread's cache). The
// kept blocks are returned to the global allocator when the thread (or the process) ends; a
// block released after that (by a destructor that runs later) goes straight back too.
//
// Under AddressSanitizer a kept block is poisoned until it is handed out again, so that a use
// after its release is still reported.
template <std::size_t Size, std::size_t Keep = 64, CacheScope Scope = CacheScope::Thread>
class BlockCache {
 public:
  static void* allocate() {
    Blocks& b = blocks();
    if (b.count > 0 && b.count <= Keep) {
      void* p = b.block[--b.count];
      BURRACO_UNPOISON(p, Size);
      return p;
    }
    return ::operator new(Size);
  }

  static void release(void* p) noexcept {
    Blocks& b = blocks();
    if (b.count < Keep) {
      if (b.count == 0) arm_drain();
      BURRACO_POISON(p, Size);
      b.block[b.count++] = p;
      return;
    }
    ::operator delete(p, Size);
  }

 private:
  // Trivially destructible, so it stays readable until the storage goes. `count` is Keep + 1
  // once the thread (or process) has ended: no block is kept any more.
  struct Blocks {
    void* block[Keep];
    std::size_t count;
  };
  // Frees the kept blocks at the end (constructed by the first block kept).
  struct Drain {
    void arm() {}
    ~Drain() {
      Blocks& b = blocks();
      while (b.count > 0 && b.count <= Keep) {
        void* p = b.block[--b.count];
        BURRACO_UNPOISON(p, Size);
        ::operator delete(p, Size);
      }
      b.count = Keep + 1;
    }
  };
  static Blocks& blocks() {
    if constexpr (Scope == CacheScope::Thread) return thread_blocks;
    else return process_blocks;
  }
  static void arm_drain() {
    if constexpr (Scope == CacheScope::Thread) thread_drain.arm();
    else process_drain.arm();
  }
  static thread_local Blocks thread_blocks;
  static thread_local Drain thread_drain;
  static Blocks process_blocks;
  static Drain process_drain;
};

template <std::size_t Size, std::size_t Keep, CacheScope Scope>
thread_local typename BlockCache<Size, Keep, Scope>::Blocks BlockCache<Size, Keep, Scope>::thread_blocks{};
template <std::size_t Size, std::size_t Keep, CacheScope Scope>
thread_local typename BlockCache<Size, Keep, Scope>::Drain BlockCache<Size, Keep, Scope>::thread_drain;
template <std::size_t Size, std::size_t Keep, CacheScope Scope>
typename BlockCache<Size, Keep, Scope>::Blocks BlockCache<Size, Keep, Scope>::process_blocks{};
template <std::size_t Size, std::size_t Keep, CacheScope Scope>
typename BlockCache<Size, Keep, Scope>::Drain BlockCache<Size, Keep, Scope>::process_drain;

// An allocator of single objects of T through a BlockCache of T's size (arrays, and any n other
// than 1, use the global allocator). For std::allocate_shared, which rebinds it to its block
// holding the counts and the object.
template <class T>
struct CachedAllocator {
  using value_type = T;
  CachedAllocator() = default;
  template <class U>
  CachedAllocator(const CachedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n == 1) return static_cast<T*>(BlockCache<sizeof(T)>::allocate());
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) return BlockCache<sizeof(T)>::release(p);
    std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  bool operator==(const CachedAllocator<U>&) const noexcept { return true; }
};

}  // namespace burraco
