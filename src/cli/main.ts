#!/usr/bin/env node
console.log('acctsync');
