/// \file
/// The static parts of the HTML report (ReportPage.cpp): the head with inline CSS, and the tail
/// with the inline script that renders the embedded JSON (reportToJson) in the browser.
#pragma once

#include <string>

namespace warplens::analysis {

/// Everything up to the opening of the data element (`<script id="data" ...>`); `title` is
/// escaped here.
std::string reportPageHead(const std::string &title);
/// Closes the data element; the rendering script; the end of the page.
std::string reportPageTail();

} // namespace warplens::analysis
