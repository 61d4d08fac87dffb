#include "bindings/array_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace torsion::bindings {

namespace {

// A block: a 64-byte header holding its capacity, then the array's data (64-byte aligned).
constexpr std::size_t kHeader = 64;
// what the cache keeps: at most this many blocks and bytes; blocks past kMaxBlock are never
// cached (their page faults are a small part of the work that fills them)
constexpr std::size_t kMaxBlocks = 32;
constexpr std::size_t kMaxBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxBlock = std::size_t{16} << 20;

struct Pool {
  std::mutex m;
  std::vector<void*> blocks;  // cached, each with its capacity in its header
  std::size_t bytes = 0;
};

// never destroyed: arrays may outlive the module's statics at interpreter exit
Pool& pool() {
  static Pool* p = new Pool();
  return *p;
}

std::size_t& capacity_of(void* block) { return *static_cast<std::size_t*>(block); }

void* acquire(std::size_t bytes) {
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.m);
    // the smallest cached block that fits without wasting more than half of itself
    std::size_t best = p.blocks.size();
    for (std::size_t k = 0; k < p.blocks.size(); ++k) {
      const std::size_t cap = capacity_of(p.blocks[k]);
      if (cap >= bytes && cap / 2 <= bytes &&
          (best == p.blocks.size() || cap < capacity_of(p.blocks[best])))
        best = k;
    }
    if (best < p.blocks.size()) {
      void* block = p.blocks[best];
      p.blocks[best] = p.blocks.back();
      p.blocks.pop_back();
      p.bytes -= capacity_of(block);
      return block;
    }
  }
  // a new block, its capacity rounded up to whole pages
  const std::size_t cap = (std::max<std::size_t>(bytes, 1) + 4095) / 4096 * 4096;
  void* block = std::aligned_alloc(kHeader, kHeader + cap);
  if (block == nullptr) throw std::bad_alloc();
  capacity_of(block) = cap;
  return block;
}

// the capsule's destructor: the array died, its block goes back to the cache (or is freed)
void release(void* data) {
  void* block = static_cast<char*>(data) - kHeader;
  const std::size_t cap = capacity_of(block);
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.m);
    if (cap <= kMaxBlock && p.blocks.size() < kMaxBlocks && p.bytes + cap <= kMaxBytes) {
      p.blocks.push_back(block);
      p.bytes += cap;
      return;
    }
  }
  std::free(block);
}

}  // namespace

py::array pooled_array(int npy_type, std::size_t item, int ndim, const Py_intptr_t* dims) {
  std::size_t count = 1;
  for (int k = 0; k < ndim; ++k) count *= static_cast<std::size_t>(dims[k]);
  void* block = acquire(count * item);
  char* data = static_cast<char*>(block) + kHeader;
  py::capsule owner;
  try {
    owner = py::capsule(data, [](void* d) { release(d); });
  } catch (...) {
    release(data);
    throw;
  }
  auto& api = py::detail::npy_api::get();
  PyObject* descr = api.PyArray_DescrFromType_(npy_type);
  if (descr == nullptr) throw py::error_already_set();
  PyObject* arr = api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, ndim,
                                            const_cast<Py_intptr_t*>(dims), nullptr, data,
                                            py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ |
                                                py::detail::npy_api::NPY_ARRAY_WRITEABLE_,
                                            nullptr);
  if (arr == nullptr) throw py::error_already_set();  // the capsule frees the block
  // the array owns the capsule from here (SetBaseObject steals the reference, even on failure)
  if (api.PyArray_SetBaseObject_(arr, owner.release().ptr()) != 0) {
    Py_DECREF(arr);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::array>(arr);
}

}  // namespace torsion::bindings
