# Read by cpack at packaging time (CPACK_PROJECT_CONFIG_FILE). A Debian package installs into /usr,
# and the systemd unit inside it names the binary by the prefix the tree was configured with.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_PACKAGING_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "the .deb must install into /usr, but this build directory was configured with "
                      "CMAKE_INSTALL_PREFIX=${CPACK_PACKAGING_INSTALL_PREFIX}: configure it with "
                      "-DCMAKE_INSTALL_PREFIX=/usr (scripts/test-deb.sh does)")
endif()
