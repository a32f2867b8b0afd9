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

// Positions are about 1.9 KB, beyond the sizes glibc's malloc keeps in its per-thread cache
// (1 KB): each allocation of one takes malloc's general path (bins, chunk splitting and
// merging), some 500 instructions for an allocation and its release. A history keeps a copy of
// the position every 8 moves and a Python search copies whole games; both make and drop such
// blocks all the time. A BlockCache keeps up to `Keep` freed blocks of `Size` bytes per thread
// and hands them out again; the rest goes to the global allocator. A block may be released on
// another thread than the one that allocated it (it joins that thread's cache). A thread's
// blocks are returned to the global allocator when it ends; a block released after that (by a
// destructor that runs later in the thread's end) goes straight back too.
//
// Under AddressSanitizer a kept block is poisoned until it is handed out again, so that a use
// after its release is still reported.
template <std::size_t Size, std::size_t Keep = 64>
class BlockCache {
 public:
  static void* allocate() {
    Blocks& b = blocks;
    if (b.count > 0 && b.count <= Keep) {
      void* p = b.block[--b.count];
      BURRACO_UNPOISON(p, Size);
      return p;
    }
    return ::operator new(Size);
  }

  static void release(void* p) noexcept {
    Blocks& b = blocks;
    if (b.count < Keep) {
      if (b.count == 0) drain.arm();
      BURRACO_POISON(p, Size);
      b.block[b.count++] = p;
      return;
    }
    ::operator delete(p, Size);
  }

 private:
  // Trivially destructible, so it stays readable until the thread's storage goes. `count` is
  // Keep + 1 once the thread has ended: no block is kept any more.
  struct Blocks {
    void* block[Keep];
    std::size_t count;
  };
  // Frees the kept blocks when the thread ends (constructed by the first block kept).
  struct Drain {
    void arm() {}
    ~Drain() {
      Blocks& b = blocks;
      while (b.count > 0 && b.count <= Keep) {
        void* p = b.block[--b.count];
        BURRACO_UNPOISON(p, Size);
        ::operator delete(p, Size);
      }
      b.count = Keep + 1;
    }
  };
  static thread_local Blocks blocks;
  static thread_local Drain drain;
};

template <std::size_t Size, std::size_t Keep>
thread_local typename BlockCache<Size, Keep>::Blocks BlockCache<Size, Keep>::blocks{};
template <std::size_t Size, std::size_t Keep>
thread_local typename BlockCache<Size, Keep>::Drain BlockCache<Size, Keep>::drain;

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
