/* For the portable binary (cmake/portable.cmake) only. libarchive's table of write formats
 * (archive_write_set_format.c, linked for a helper the pax writer uses) names its xar writer, and
 * that writer calls libxml2. gpudoctor writes pax archives only and never selects xar; linking the
 * real libxml2 would also link ICU, 30 MB of conversion tables, for code that never runs.
 * These definitions of the libxml2 calls that writer makes all fail (NULL, -1), so a xar writer,
 * were one ever selected, would report an error instead of writing. */
#include <stddef.h>

void* xmlBufferCreate(void) { return NULL; }
void xmlBufferFree(void* buf) { (void)buf; }
void* xmlNewTextWriterMemory(void* buf, int compression) {
  (void)buf;
  (void)compression;
  return NULL;
}
void xmlFreeTextWriter(void* writer) { (void)writer; }
int xmlTextWriterStartDocument(void* w, const char* version, const char* encoding, const char* standalone) {
  (void)w, (void)version, (void)encoding, (void)standalone;
  return -1;
}
int xmlTextWriterEndDocument(void* w) {
  (void)w;
  return -1;
}
int xmlTextWriterSetIndent(void* w, int indent) {
  (void)w, (void)indent;
  return -1;
}
int xmlTextWriterStartElement(void* w, const char* name) {
  (void)w, (void)name;
  return -1;
}
int xmlTextWriterEndElement(void* w) {
  (void)w;
  return -1;
}
int xmlTextWriterWriteString(void* w, const char* content) {
  (void)w, (void)content;
  return -1;
}
int xmlTextWriterWriteAttribute(void* w, const char* name, const char* content) {
  (void)w, (void)name, (void)content;
  return -1;
}
int xmlTextWriterWriteFormatAttribute(void* w, const char* name, const char* format, ...) {
  (void)w, (void)name, (void)format;
  return -1;
}
int xmlTextWriterWriteBase64(void* w, const char* data, int start, int len) {
  (void)w, (void)data, (void)start, (void)len;
  return -1;
}
int UTF8Toisolat1(unsigned char* out, int* outlen, const unsigned char* in, int* inlen) {
  (void)out, (void)outlen, (void)in, (void)inlen;
  return -1;
}
