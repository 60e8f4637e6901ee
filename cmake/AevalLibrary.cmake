# aeval_library(NAME [GLOB folder] [SOURCES file...] [PUBLIC dep...] [PRIVATE dep...])
#
# One layer of aeval as a static archive, aeval_NAME_archive, and the target
# everyone links, aeval_NAME, which takes the whole archive: components
# register themselves from static objects no other file refers to, and a
# plain archive link would drop them. Linking whole archives also makes every
# layer prove it links with only the layers it names.
function(aeval_library name)
  cmake_parse_arguments(A "" "GLOB" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  set(sources ${A_SOURCES})
  if(A_GLOB)
    file(GLOB_RECURSE globbed CONFIGURE_DEPENDS ${A_GLOB}/*.cpp)
    list(APPEND sources ${globbed})
  endif()
  set(archive aeval_${name}_archive)
  add_library(${archive} STATIC ${sources})
  set_target_properties(${archive} PROPERTIES EXPORT_NAME ${name}_archive POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${archive}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>
           $<INSTALL_INTERFACE:include>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${archive} PUBLIC ${A_PUBLIC} PRIVATE ${A_PRIVATE})
  aeval_precompile_common_headers(${archive})
  add_library(aeval_${name} INTERFACE)
  set_target_properties(aeval_${name} PROPERTIES EXPORT_NAME ${name})
  # (An export does not rename targets inside LINK_LIBRARY, so the installed name is spelled out.)
  target_link_libraries(aeval_${name} INTERFACE "$<BUILD_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,${archive}>>"
                                                "$<INSTALL_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,aeval::${name}_archive>>")
endfunction()

# The headers nearly every file of aeval reads, parsed and instantiated once per target: JSON and fmt's
# templates were a third of a typical file's compile time, which both CI builds pay (docs/DESIGN-notes.md).
function(aeval_precompile_common_headers target)
  target_precompile_headers(${target} PRIVATE <nlohmann/json.hpp> <fmt/format.h> <filesystem> <string> <vector> <map>
                            <functional> <memory> <optional>)
endfunction()
