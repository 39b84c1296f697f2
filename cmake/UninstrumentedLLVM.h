// Force-included into devplace's objects in sanitizer builds
// (DEVPLACE_SANITIZE=ON).
//
// LLVM's and clangd's libraries are Debian's, not instrumented, but their
// inline templates (BumpPtrAllocator above all) are also instantiated in our
// instrumented objects, and the linker may keep our copy for everyone. Under
// ASan that copy poisons each new slab and unpoisons only what it hands out
// itself, so uninstrumented code writing into the same allocator trips
// "use-after-poison" (seen in clangd's TUScheduler). The annotations are
// therefore turned off in LLVM's headers: instrumented and uninstrumented
// code then agree that allocator memory is plain heap memory. ASan still
// checks every access our code makes to the heap, stack and globals.
#include "llvm/Support/Compiler.h"
#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
