// Image files for the smile-classifier example, without OpenCV: stb_image
// reads JPEG (and PNG, PPM, ...), stb_image_write writes JPEG. Both come
// header-only in stb/, so the example builds wherever LibTorch does.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// The implementations are static: each program is one translation unit.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_JPEG
#define STBI_ONLY_PNG
#define STBI_ONLY_PNM
#include "stb/stb_image.h"
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb/stb_image_write.h"
#pragma GCC diagnostic pop

namespace celeba {

/// An 8-bit RGB image, rows top to bottom, channels interleaved.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;

  Image() = default;
  Image(int w, int h, uint8_t r, uint8_t g, uint8_t b)
      : width(w), height(h), rgb(size_t(w) * h * 3) {
    for (size_t i = 0; i < rgb.size(); i += 3) {
      rgb[i] = r;
      rgb[i + 1] = g;
      rgb[i + 2] = b;
    }
  }
  uint8_t *at(int x, int y) { return &rgb[(size_t(y) * width + x) * 3]; }
};

/// Reads \p path as RGB; throws std::runtime_error with stb's reason.
inline Image readImage(const std::string &path) {
  int w = 0, h = 0, channels = 0;
  unsigned char *data = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (!data)
    throw std::runtime_error("cannot read image " + path + ": " +
                             stbi_failure_reason());
  Image img;
  img.width = w;
  img.height = h;
  img.rgb.assign(data, data + size_t(w) * h * 3);
  stbi_image_free(data);
  return img;
}

/// Writes \p img to \p path as a JPEG of quality \p quality; throws on failure.
inline void writeJpeg(const std::string &path, const Image &img,
                      int quality = 95) {
  if (!stbi_write_jpg(path.c_str(), img.width, img.height, 3, img.rgb.data(),
                      quality))
    throw std::runtime_error("cannot write image " + path);
}

} // namespace celeba
