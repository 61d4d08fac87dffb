// NumPy output arrays whose memory is recycled: a small process-wide cache of the blocks of
// arrays Python has freed.
//
// Why: a batch query returns fresh arrays of hundreds of kilobytes on every call (ray_test_batch:
// 0.9 MB for 10k rays). Blocks that large come from mmap (or a heap top that glibc trims), so
// every call faulted in ~220 fresh pages: 150 us of a 1.3 ms call for 10k rays was the kernel's.
// An array made here keeps its block alive through a capsule (its NumPy base); when the array
// dies the block goes back to the cache and the next call of the same size reuses it, pages
// already mapped. The arrays are ordinary writable, C-contiguous NumPy arrays the caller owns;
// their contents are uninitialised (every element must be written).
#pragma once

#include <pybind11/numpy.h>

#include <cstddef>

namespace torsion::bindings {

namespace py = pybind11;

// a C-contiguous array of `ndim` dims (dims[k] >= 0) of element type `npy_type` (a NumPy type
// number) and item size `item`, its memory from the cache
py::array pooled_array(int npy_type, std::size_t item, int ndim, const Py_intptr_t* dims);

template <class T>
py::array_t<T> pooled_array(std::initializer_list<Py_intptr_t> dims) {
  const int type = py::detail::npy_format_descriptor<T>::value;
  return py::reinterpret_steal<py::array_t<T>>(
      pooled_array(type, sizeof(T), static_cast<int>(dims.size()), dims.begin()).release());
}

}  // namespace torsion::bindings
